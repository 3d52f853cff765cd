public import HTTPTypes
import ServiceCore

/// A raw HTTP/1.1 request as text: request line, header fields, body, with CRLF or LF line
/// ends.
///
/// Parsing is strict where a mistake would change what is signed (field-name syntax, white
/// space before a colon, a body that does not match `Content-Length`, chunked bodies), and
/// lenient where HTTP allows it (leading empty lines, obsolete line folding, a missing final
/// empty line when there is no body). Serialising writes the request back with the line ends
/// it was read with.
public struct RawHTTPRequest: Sendable, Equatable {
    /// The line ending style.
    public enum LineEnding: Sendable, Equatable {
        /// `\r\n`, as on the wire.
        case crlf
        /// `\n`, as typed in an editor.
        case lf

        var bytes: [UInt8] { self == .crlf ? [0x0D, 0x0A] : [0x0A] }
    }

    /// The method token.
    public var method: String
    /// The request target as written.
    public var target: String
    /// The protocol version, for example `HTTP/1.1`.
    public var version: String
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body bytes (empty for none).
    public var body: [UInt8]
    /// The line ending style of the input.
    public var lineEnding: LineEnding

    /// The largest request read, in bytes.
    public static let maximumSize = 16 * 1024 * 1024

    /// Creates a request.
    public init(
        method: String,
        target: String,
        version: String = "HTTP/1.1",
        headers: HTTPHeaders,
        body: [UInt8] = [],
        lineEnding: LineEnding = .crlf
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.lineEnding = lineEnding
    }

    /// Parses a request.
    /// - Throws: ``RawHTTPRequestError`` naming the line and the problem.
    public static func parse(_ bytes: [UInt8]) throws(RawHTTPRequestError) -> RawHTTPRequest {
        guard bytes.count <= maximumSize else {
            throw RawHTTPRequestError("the request is larger than \(maximumSize) bytes")
        }
        var position = 0
        var lineNumber = 0
        /// The next line without its ending, and whether it ended with CRLF; `nil` at the end.
        func nextLine() -> (text: ArraySlice<UInt8>, crlf: Bool)? {
            guard position < bytes.count else { return nil }
            let start = position
            while position < bytes.count && bytes[position] != 0x0A { position += 1 }
            var end = position
            if position < bytes.count { position += 1 }
            lineNumber += 1
            var crlf = false
            if end > start && bytes[end - 1] == 0x0D {
                end -= 1
                crlf = true
            }
            return (bytes[start..<end], crlf)
        }

        // Request line (empty lines before it are ignored, as RFC 9112 §2.2 allows).
        var requestLine: (text: ArraySlice<UInt8>, crlf: Bool)?
        while let line = nextLine() {
            if !line.text.isEmpty {
                requestLine = line
                break
            }
        }
        guard let requestLine else { throw RawHTTPRequestError("the input holds no request line") }
        let parts = requestLine.text.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw RawHTTPRequestError(
                "the request line must be 'METHOD target HTTP/1.1' with single spaces", line: lineNumber)
        }
        guard parts[0].allSatisfy(HTTPToken.isTokenCharacter) else {
            throw RawHTTPRequestError("the method is not a token", line: lineNumber)
        }
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw RawHTTPRequestError("the request target holds a space or control character", line: lineNumber)
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version.hasPrefix("HTTP/1.") else {
            throw RawHTTPRequestError("the version must be HTTP/1.x, not '\(version)'", line: lineNumber)
        }
        var request = RawHTTPRequest(
            method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
            version: version, headers: HTTPHeaders(), lineEnding: requestLine.crlf ? .crlf : .lf)

        // Header fields.
        var fields: [(String, String)] = []
        var endedWithEmptyLine = false
        while let line = nextLine() {
            if line.text.isEmpty {
                endedWithEmptyLine = true
                break
            }
            if let first = line.text.first, first == 0x20 || first == 0x09 {
                guard !fields.isEmpty else {
                    throw RawHTTPRequestError("a continuation line comes before any field", line: lineNumber)
                }
                let continuation = trimmed(line.text)
                fields[fields.count - 1].1 += (fields[fields.count - 1].1.isEmpty ? "" : " ") + continuation
                continue
            }
            guard let colon = line.text.firstIndex(of: UInt8(ascii: ":")) else {
                throw RawHTTPRequestError("a header line has no ':'", line: lineNumber)
            }
            let name = line.text[line.text.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(HTTPToken.isTokenCharacter) else {
                throw RawHTTPRequestError(
                    "the field name '\(String(decoding: name, as: UTF8.self))' is not a token (no spaces before ':')",
                    line: lineNumber)
            }
            let value = line.text[line.text.index(after: colon)...]
            guard value.allSatisfy({ $0 >= 0x20 || $0 == 0x09 }), !value.contains(0x7F) else {
                throw RawHTTPRequestError("a field value holds a control character", line: lineNumber)
            }
            fields.append((String(decoding: name, as: UTF8.self), trimmed(value)))
        }
        request.headers = HTTPHeaders(fields)

        // Body.
        let rest = Array(bytes[position...])
        if request.headers.contains("Transfer-Encoding") {
            throw RawHTTPRequestError("Transfer-Encoding (chunked bodies) is not supported; send Content-Length")
        }
        let lengths = request.headers.values(for: "Content-Length")
        if let declared = lengths.first {
            guard lengths.allSatisfy({ $0 == declared }), let length = Int(declared), length >= 0 else {
                throw RawHTTPRequestError("Content-Length is not one whole number")
            }
            guard rest.count == length else {
                throw RawHTTPRequestError("the body is \(rest.count) bytes but Content-Length says \(length)")
            }
        } else if !rest.isEmpty && !endedWithEmptyLine {
            throw RawHTTPRequestError("the header section does not end with an empty line")
        }
        request.body = rest
        return request
    }

    /// The request as bytes, with the line ending it was read with.
    public func serialized() -> [UInt8] {
        let newline = lineEnding.bytes
        var output: [UInt8] = []
        output.reserveCapacity(256 + body.count)
        output.append(contentsOf: "\(method) \(target) \(version)".utf8)
        output.append(contentsOf: newline)
        for field in headers {
            output.append(contentsOf: field.name.utf8)
            output.append(contentsOf: ": ".utf8)
            output.append(contentsOf: field.value.utf8)
            output.append(contentsOf: newline)
        }
        output.append(contentsOf: newline)
        output.append(contentsOf: body)
        return output
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

}
