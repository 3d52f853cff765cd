/// RFC 3986 percent-encoding for the parts of a URL the core builds.
package enum PercentEncoding {
    /// Encodes a string for use as one path segment: everything but the unreserved set
    /// (`A-Z a-z 0-9 - . _ ~`) is encoded, so `/`, `?`, `#`, `%`, spaces and non-ASCII text can
    /// never change the path's shape.
    package static func pathSegment(_ string: String) -> String {
        encode(string, keeping: isUnreserved)
    }

    /// Encodes a query name or value: everything but the unreserved set, so `&`, `=`, `+`, `#`
    /// and spaces are always encoded (a space becomes `%20`, never `+`).
    package static func queryComponent(_ string: String) -> String {
        encode(string, keeping: isUnreserved)
    }

    /// Encodes a name or value of `application/x-www-form-urlencoded` (WHATWG URL standard):
    /// a space becomes `+`, and everything but `A-Z a-z 0-9 * - . _` is percent-encoded.
    package static func formComponent(_ string: String) -> String {
        var out = ""
        out.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if byte == 0x20 {
                out.append("+")
            } else if isAlphaNumeric(byte) || byte == 0x2A || byte == 0x2D || byte == 0x2E || byte == 0x5F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                appendEscaped(byte, to: &out)
            }
        }
        return out
    }

    /// Whether the path (already encoded) contains only characters RFC 3986 allows in a path.
    package static func isValidEncodedPath(_ path: String) -> Bool {
        var bytes = path.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == 0x25 {  // "%" must be followed by two hex digits
                guard let high = bytes.next(), let low = bytes.next(), isHex(high), isHex(low) else { return false }
                continue
            }
            // unreserved, sub-delims, ":", "@", "/"
            let allowed =
                isUnreserved(byte) || "!$&'()*+,;=:@/".utf8.contains(byte)
            if !allowed { return false }
        }
        return true
    }

    private static func encode(_ string: String, keeping keep: (UInt8) -> Bool) -> String {
        // Fast path: nothing to encode.
        if string.utf8.allSatisfy(keep) { return string }
        var out = ""
        out.reserveCapacity(string.utf8.count * 3)
        for byte in string.utf8 {
            if keep(byte) { out.unicodeScalars.append(Unicode.Scalar(byte)) } else { appendEscaped(byte, to: &out) }
        }
        return out
    }

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    private static func appendEscaped(_ byte: UInt8, to out: inout String) {
        out.unicodeScalars.append("%")
        out.unicodeScalars.append(hexDigits[Int(byte >> 4)])
        out.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
    }

    private static func isAlphaNumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlphaNumeric(byte) || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
