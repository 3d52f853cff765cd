import HTTPTypes
import ServiceCore

/// The bytes of one HTTP/1.1 request: request line, header fields, blank line and body.
enum HTTP1RequestHead {
    /// Writes `request` for `target`: the headers exactly as given, then `Host` unless the request
    /// sets it, and `Content-Length` when there is a body or the method is `POST`, `PUT` or `PATCH`
    /// (any `Content-Length` or `Transfer-Encoding` the request sets is replaced by it).
    /// - Throws: `TransportError` with code `invalidRequest` for a method or header name that is
    ///   not a token, or a header value with CR, LF or NUL.
    static func bytes(of request: HTTPRequest, to target: HTTP1Target) throws -> [UInt8] {
        let method = request.method.rawValue
        guard HTTPToken.isToken(method) else {
            throw TransportError(.invalidRequest, "the method '\(method)' is not a valid HTTP token")
        }
        let body = request.body
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + target.requestTarget.utf8.count + (body?.count ?? 0) + request.headers.count * 64)
        bytes.append(contentsOf: method.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: target.requestTarget.utf8)
        bytes.append(contentsOf: " HTTP/1.1\r\n".utf8)
        var hasHost = false
        for field in request.headers {
            var name = field.name
            let kind = try name.withUTF8 { name -> Kind in
                guard HTTPToken.isToken(name) else {
                    throw TransportError(.invalidRequest, "the header name '\(field.name)' is not a valid HTTP token")
                }
                let kind = Kind(UnsafeRawBufferPointer(name))
                if kind != .framing { bytes.append(contentsOf: name) }
                return kind
            }
            if kind == .framing { continue }
            if kind == .host { hasHost = true }
            bytes.append(UInt8(ascii: ":"))
            bytes.append(UInt8(ascii: " "))
            var value = field.value
            try value.withUTF8 { value in
                for byte in value where byte == 0x0D || byte == 0x0A || byte == 0 {
                    throw TransportError(
                        .invalidRequest, "the value of the header '\(field.name)' holds a line break or a NUL")
                }
                bytes.append(contentsOf: value)
            }
            bytes.append(0x0D)
            bytes.append(0x0A)
        }
        if !hasHost {
            bytes.append(contentsOf: "Host: ".utf8)
            bytes.append(contentsOf: target.authority.utf8)
            bytes.append(0x0D)
            bytes.append(0x0A)
        }
        if body != nil || request.method == .post || request.method == .put || request.method == .patch {
            bytes.append(contentsOf: "Content-Length: ".utf8)
            bytes.append(contentsOf: String(body?.count ?? 0).utf8)
            bytes.append(0x0D)
            bytes.append(0x0A)
        }
        bytes.append(0x0D)
        bytes.append(0x0A)
        if let body, request.method != .head { bytes.append(contentsOf: body) }
        return bytes
    }

    /// What a header name means to the transport.
    private enum Kind {
        /// `Content-Length` or `Transfer-Encoding`: the transport writes the framing itself.
        case framing
        /// `Host`: the request names its own.
        case host
        case other

        init(_ name: UnsafeRawBufferPointer) {
            switch name.count {
            case 4 where ASCIICaseInsensitive.equal(name, "host"): self = .host
            case 14 where ASCIICaseInsensitive.equal(name, "content-length"): self = .framing
            case 17 where ASCIICaseInsensitive.equal(name, "transfer-encoding"): self = .framing
            default: self = .other
            }
        }
    }
}
