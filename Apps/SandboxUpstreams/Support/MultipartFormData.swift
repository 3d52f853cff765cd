import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `multipart/form-data` body (RFC 7578, RFC 2046 section 5.1) split into its parts, with
/// limits on the number of parts and the size of their heads.
///
/// Accepts a preamble and an epilogue, transport padding after a boundary, and parts in any
/// order; refuses a missing first or closing boundary, folded or malformed head lines, and
/// parts without a `form-data` `Content-Disposition` name. Names and file names have `%22`,
/// `%0D` and `%0A` decoded (the escapes writers use for `"`, CR and LF).
struct MultipartFormData {
    /// One part.
    struct Part: Equatable {
        /// The `name` of its `Content-Disposition`.
        var name: String
        /// The `filename`, for file parts.
        var fileName: String?
        /// Its `Content-Type` as sent, or `nil`.
        var contentType: String?
        /// Its bytes.
        var data: Data
    }

    /// Bounds on what the parser accepts.
    struct Limits {
        /// The most parts.
        var maximumParts = 16
        /// The largest head (header lines) of one part, in bytes.
        var maximumHeadBytes = 8 * 1024
        /// The most header lines in one part.
        var maximumHeadFields = 8
    }

    /// The parts, in order.
    let parts: [Part]

    /// Whether a boundary is 1-70 characters of RFC 2046's `bchars`, not ending in a space.
    static func isValidBoundary(_ boundary: String) -> Bool {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        return (1...70).contains(boundary.utf8.count) && boundary.utf8.allSatisfy(allowed.contains)
            && boundary.utf8.last != 0x20
    }

    /// Splits `body` at `boundary`.
    /// - Throws: 400 `invalid_request` naming what is malformed.
    init(body: Data, boundary: String, limits: Limits = Limits()) throws(Problem) {
        guard Self.isValidBoundary(boundary) else {
            throw Self.malformed("the boundary parameter must be 1-70 characters allowed by RFC 2046")
        }
        let bytes = [UInt8](body)
        let dashBoundary = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        // The first boundary: at the very start, or after a preamble ending in CRLF.
        var position: Int
        if bytes.starts(with: dashBoundary) {
            position = dashBoundary.count
        } else if let found = Self.find(delimiter, in: bytes, from: 0) {
            position = found + delimiter.count
        } else {
            throw Self.malformed("the body does not contain the boundary")
        }
        var parts: [Part] = []
        while true {
            // After a boundary: "--" closes the body; else optional padding and CRLF open a part.
            if Self.matches(bytes, at: position, "--") { break }
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            guard Self.matches(bytes, at: position, "\r\n") else {
                throw Self.malformed("a boundary line is followed by other characters")
            }
            position += 2
            guard parts.count < limits.maximumParts else {
                throw Self.malformed("the body has more than \(limits.maximumParts) parts")
            }
            let head = try Self.readHead(bytes, from: &position, limits: limits)
            guard let end = Self.find(delimiter, in: bytes, from: position) else {
                throw Self.malformed("a part is not closed by a boundary")
            }
            parts.append(
                Part(
                    name: head.name, fileName: head.fileName, contentType: head.contentType,
                    data: Data(bytes[position..<end])))
            position = end + delimiter.count
        }
        guard !parts.isEmpty else { throw Self.malformed("the body has no parts") }
        self.parts = parts
    }

    private static func malformed(_ reason: String) -> Problem {
        Problem(.invalidRequest, "malformed multipart body: \(reason)")
    }

    private static func matches(_ bytes: [UInt8], at position: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { expected in
            bytes[position..<position + count].elementsEqual(expected)
        }
    }

    /// The first index of `needle` in `bytes` at or after `start`, ending before `end` (the end
    /// of `bytes` unless given).
    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let stop = min(end ?? bytes.count, bytes.count)
        guard start <= stop, !needle.isEmpty, stop - start >= needle.count else { return nil }
        return bytes.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                guard let base = haystack.baseAddress, let first = pattern.first, let patternBase = pattern.baseAddress
                else { return nil }
                var position = start
                let last = stop - pattern.count
                while position <= last {
                    // memchr finds the candidates; memcmp confirms them.
                    guard let hit = memchr(base + position, Int32(first), last - position + 1) else { return nil }
                    let offset = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + offset, patternBase, pattern.count) == 0 { return offset }
                    position = offset + 1
                }
                return nil
            }
        }
    }

    private static let lineBreak: [UInt8] = [0x0D, 0x0A]

    private struct Head {
        var name: String
        var fileName: String?
        var contentType: String?
    }

    /// Reads a part's header lines up to the empty line, leaving `position` at its content.
    private static func readHead(_ bytes: [UInt8], from position: inout Int, limits: Limits) throws(Problem) -> Head {
        var disposition: String?
        var contentType: String?
        var fields = 0
        let start = position
        while true {
            guard position - start <= limits.maximumHeadBytes else {
                throw malformed("a part's header lines are longer than \(limits.maximumHeadBytes) bytes")
            }
            guard let lineEnd = find(lineBreak, in: bytes, from: position, before: start + limits.maximumHeadBytes + 2)
            else { throw malformed("a part's header lines do not end within \(limits.maximumHeadBytes) bytes") }
            if lineEnd == position {
                position += 2
                break
            }
            fields += 1
            guard fields <= limits.maximumHeadFields else {
                throw malformed("a part has more than \(limits.maximumHeadFields) header lines")
            }
            let line = bytes[position..<lineEnd]
            position = lineEnd + 2
            guard let first = line.first, first != 0x20, first != 0x09,
                let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[line.startIndex..<colon].allSatisfy(MediaType.isTokenByte),
                let value = String(validating: line[(colon + 1)...], as: UTF8.self)
            else { throw malformed("a part has a malformed header line") }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            let trimmed = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            switch name {
            case "content-disposition":
                guard disposition == nil else { throw malformed("a part has two Content-Disposition lines") }
                disposition = trimmed
            case "content-type":
                guard contentType == nil else { throw malformed("a part has two Content-Type lines") }
                contentType = trimmed
            default:
                break
            }
        }
        guard let disposition else { throw malformed("a part has no Content-Disposition") }
        var scanner = HeaderValueScanner(disposition)
        guard let kind = scanner.token(), kind.lowercased() == "form-data",
            let parameters = scanner.parameters(backslashEscapes: false)
        else { throw malformed("a part's Content-Disposition is not form-data with parameters") }
        guard let name = parameters.first(where: { $0.name == "name" })?.value else {
            throw malformed("a part's Content-Disposition has no name")
        }
        let fileName = parameters.first { $0.name == "filename" }?.value
        return Head(name: unescape(name), fileName: fileName.map(unescape), contentType: contentType)
    }

    /// Decodes the `%22`, `%0D` and `%0A` escapes of names and file names.
    private static func unescape(_ text: String) -> String {
        guard text.contains("%") else { return text }
        return text.replacingOccurrences(of: "%22", with: "\"", options: .caseInsensitive)
            .replacingOccurrences(of: "%0D", with: "\r", options: .caseInsensitive)
            .replacingOccurrences(of: "%0A", with: "\n", options: .caseInsensitive)
    }
}
