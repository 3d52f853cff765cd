/// Checks the syntax of a request head byte by byte (RFC 9112 sections 2-5), before http-parser
/// reads it: Debian's build of the parser is not strict, so it lets through a misspelt protocol
/// name, extra spaces in the request line, bytes outside visible ASCII in the target, whitespace
/// before a field's colon, bare LF line ends and obs-fold. It also tells whether the method is a
/// token, so that an unknown method gets 501 and garbage 400.
///
/// It is fed the bytes of one request head as they arrive, and stops at the empty line that ends it.
struct HeadScanner {
    /// Which part of a line the next byte belongs to.
    private enum Part {
        case method, target, version(Int), name, value
    }

    /// Whether the empty line that ends the head was seen.
    private(set) var finished = false
    /// Whether the method holds only token characters (and at least one).
    private(set) var methodIsToken = true
    private var part = Part.method
    private var sawCR = false
    private var lineLength = 0
    private var partLength = 0
    private var lines = 0

    private static let version: [UInt8] = Array("HTTP/".utf8)

    /// Scans `bytes`; returns how many belong to the head, or a refusal for the first bad byte.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Result<Int, Refusal> {
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if sawCR {
                guard byte == 0x0A else {
                    return .failure(.malformed("A CR in the request head is not followed by LF."))
                }
                sawCR = false
                if let refusal = endLine() { return .failure(refusal) }
                if finished { return .success(index + 1) }
                continue
            }
            switch byte {
            case 0x0D:
                sawCR = true
                continue
            case 0x0A:
                return .failure(.malformed("A line of the request head ends in a bare LF; lines end in CRLF."))
            case 0x00:
                return .failure(.malformed("The request head holds a NUL byte."))
            default:
                break
            }
            if let refusal = take(byte) { return .failure(refusal) }
            lineLength += 1
        }
        return .success(bytes.count)
    }

    // Inlined: it runs for every byte of every head.
    @inline(__always)
    private mutating func take(_ byte: UInt8) -> Refusal? {
        switch part {
        case .method:
            if byte == 0x20 {
                guard partLength > 0 else { return .malformed("The request line does not start with a method.") }
                part = .target
                partLength = 0
                return nil
            }
            guard Self.isTokenCharacter(byte) else {
                methodIsToken = false
                return .malformed("The request method is not a token.")
            }
        case .target:
            if byte == 0x20 {
                guard partLength > 0 else { return .malformed("The request line has two spaces before the target.") }
                part = .version(0)
                return nil
            }
            guard byte > 0x20 && byte < 0x7F else {
                return .malformed("The request-target must hold only visible ASCII characters.")
            }
        case .version(let position):
            let fits: Bool
            switch position {
            case 0..<5: fits = byte == Self.version[position]
            case 5, 7: fits = byte >= 0x30 && byte <= 0x39
            case 6: fits = byte == UInt8(ascii: ".")
            default: fits = false
            }
            guard fits else { return .malformed("The request line does not end in HTTP/x.y.") }
            part = .version(position + 1)
            return nil
        case .name:
            if byte == UInt8(ascii: ":") {
                guard partLength > 0 else { return .malformed("A header field has an empty name.") }
                part = .value
                return nil
            }
            if partLength == 0 && (byte == 0x20 || byte == 0x09) {
                return .malformed("A field line starts with whitespace (obs-fold is not accepted).")
            }
            guard Self.isTokenCharacter(byte) else {
                return .malformed("A header field name is not a token, or has whitespace before its colon.")
            }
        case .value:
            guard byte >= 0x20 ? byte != 0x7F : byte == 0x09 else {
                return .malformed("A header field value holds a control character.")
            }
        }
        partLength += 1
        return nil
    }

    private mutating func endLine() -> Refusal? {
        defer {
            lineLength = 0
            partLength = 0
        }
        if lineLength == 0 {
            // Empty lines before the request line are ignored (RFC 9112 section 2.2).
            if lines > 0 { finished = true }
            return nil
        }
        switch part {
        case .version(8):
            break
        case .value:
            break
        case .method, .target, .version:
            return .malformed("The request line must be: method, target and HTTP version, separated by one space.")
        case .name:
            return .malformed("A header field line has no colon.")
        }
        lines += 1
        part = .name
        return nil
    }

    /// Whether `byte` is a `tchar` (RFC 9110 section 5.6.2).
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
