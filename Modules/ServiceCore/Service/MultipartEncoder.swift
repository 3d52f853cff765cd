package import Foundation

/// Writes `multipart/form-data` bodies (RFC 7578, RFC 2046 §5.1).
package enum MultipartEncoder {
    /// Encodes the parts with CRLF line ends:
    ///
    /// ```
    /// --BOUNDARY\r\n
    /// Content-Disposition: form-data; name="file"; filename="a.png"\r\n
    /// Content-Type: image/png\r\n
    /// \r\n
    /// <bytes>\r\n
    /// --BOUNDARY--\r\n
    /// ```
    ///
    /// In names and file names `"`, CR and LF are percent-encoded (RFC 7578 §2, as browsers do).
    package static func encode(_ parts: [MultipartPart], boundary: String) -> Data {
        var body = Data()
        body.reserveCapacity(parts.reduce(64) { $0 + $1.data.count + 128 })
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(escape(part.name))\""
            if let fileName = part.fileName {
                head += "; filename=\"\(escape(fileName))\""
            }
            head += "\r\n"
            if let contentType = part.contentType ?? (part.fileName == nil ? nil : "application/octet-stream") {
                head += "Content-Type: \(contentType)\r\n"
            }
            head += "\r\n"
            body.append(contentsOf: head.utf8)
            body.append(part.data)
            body.append(contentsOf: "\r\n".utf8)
        }
        body.append(contentsOf: "--\(boundary)--\r\n".utf8)
        return body
    }

    /// A random boundary: `swifty-` and 24 hexadecimal digits.
    package static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt32
        let hex = String(high, radix: 16) + String(low, radix: 16)
        return "swifty-" + String(repeating: "0", count: max(0, 24 - hex.count)) + hex
    }

    /// Whether a boundary is 1-70 characters of RFC 2046's `bchars` and does not end in a space.
    package static func isValidBoundary(_ boundary: String) -> Bool {
        (1...70).contains(boundary.utf8.count) && boundary.utf8.allSatisfy(boundaryCharacters.contains)
            && boundary.utf8.last != 0x20
    }

    /// RFC 2046's `bchars`, built once.
    private static let boundaryCharacters = Set(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)

    private static func escape(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "%22"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
