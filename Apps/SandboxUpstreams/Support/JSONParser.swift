import Foundation

/// A strict RFC 8259 parser into ``JSONValue``, with a nesting limit.
///
/// Refuses what a lenient reader would let through: trailing content, duplicate member names,
/// lone surrogates, invalid UTF-8, leading zeros, control characters in strings.
struct JSONParser {
    /// Why a body is not acceptable JSON, with the byte offset where parsing stopped.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var message: String
        var offset: Int

        var description: String { "\(message) at byte \(offset)" }
    }

    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses a whole document.
    /// - Throws: ``Failure`` naming what is wrong and where.
    static func parse(_ data: Data) throws(Failure) -> JSONValue {
        var parser = JSONParser([UInt8](data))
        parser.skipWhiteSpace()
        let value = try parser.parseValue()
        parser.skipWhiteSpace()
        guard parser.index == parser.bytes.count else { throw parser.fail("unexpected content after the JSON value") }
        return value
    }

    private func fail(_ message: String) -> Failure {
        Failure(message: message, offset: index)
    }

    private mutating func skipWhiteSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail("the JSON ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character where a value was expected")
        }
    }

    private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw fail("invalid literal (expected \(word))") }
            index += 1
        }
        return value
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw fail("the JSON nests deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONValue.Member] = []
        var names: Set<String> = []
        skipWhiteSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a member name in double quotes")
            }
            let name = try parseString()
            guard names.insert(name).inserted else { throw fail("the member \"\(name)\" appears twice") }
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhiteSpace()
            members.append(JSONValue.Member(name: name, value: try parseValue()))
            skipWhiteSpace()
            guard index < bytes.count else { throw fail("the JSON ends inside an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw fail("expected ',' or '}' in an object") }
            index += 1
            return .object(members)
        }
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhiteSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhiteSpace()
            elements.append(try parseValue())
            skipWhiteSpace()
            guard index < bytes.count else { throw fail("the JSON ends inside an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw fail("expected ',' or ']' in an array") }
            index += 1
            return .array(elements)
        }
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a number needs a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail("a number must not have leading zeros") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a fraction needs a digit") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("an exponent needs a digit") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func parseString() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                try appendRun(runStart..<index, to: &scalars)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try appendRun(runStart..<index, to: &scalars)
                index += 1
                scalars.append(try parseEscape())
                runStart = index
            case 0x00..<0x20:
                throw fail("a string holds an unescaped control character")
            default:
                index += 1
            }
        }
        throw fail("the JSON ends inside a string")
    }

    /// Appends the UTF-8 bytes in `range` (a run without escapes) as scalars.
    private func appendRun(_ range: Range<Int>, to scalars: inout String.UnicodeScalarView) throws(Failure) {
        guard !range.isEmpty else { return }
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw fail("a string holds bytes that are not UTF-8")
        }
        scalars.append(contentsOf: text.unicodeScalars)
    }

    private mutating func parseEscape() throws(Failure) -> Unicode.Scalar {
        guard index < bytes.count else { throw fail("the JSON ends inside an escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            if (0xD800...0xDBFF).contains(first) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw fail("a high surrogate escape is not followed by a low one") }
                index += 2
                let second = try parseHex4()
                guard (0xDC00...0xDFFF).contains(second) else { throw fail("a surrogate pair is malformed") }
                let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw fail("an escape is not a Unicode scalar") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(first) else { throw fail("a lone low surrogate escape") }
            return scalar
        default:
            throw fail("an invalid escape sequence")
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("the JSON ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
