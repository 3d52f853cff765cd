/// Checks RFC 8941 syntax without building values: the same grammar and limits as ``SFParser``,
/// reporting where values are instead of copying them. Used on the verifier's fast path.
struct SFValidator {
    /// A bare item's kind and where it is.
    enum Value {
        case integer(Int64)
        case decimal
        /// The range between the quotes, and whether it holds escapes.
        case string(Range<Int>, escaped: Bool)
        case token(Range<Int>)
        /// The range between the colons.
        case byteSequence(Range<Int>)
        case boolean(Bool)
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let limits: SFParser.Limits
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: SFParser.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    var atEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpaces() {
        while index < bytes.count && bytes[index] == 0x20 { index += 1 }
    }

    mutating func skipOptionalWhitespace() {
        while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
    }

    /// Walks a whole dictionary, calling `visit` with each key's range and its member's range.
    /// Returns `false` for invalid syntax or exceeded limits.
    mutating func dictionary(_ visit: (Range<Int>, Range<Int>) -> Void) -> Bool {
        guard bytes.count <= limits.maximumLength else { return false }
        skipSpaces()
        var members = 0
        while !atEnd {
            guard let key = key() else { return false }
            members += 1
            guard members <= limits.maximumMembers else { return false }
            let start = index
            if current == UInt8(ascii: "=") {
                index += 1
                guard member() else { return false }
            } else {
                guard parameters() else { return false }
            }
            visit(key, start..<index)
            skipOptionalWhitespace()
            if atEnd { break }
            guard current == UInt8(ascii: ",") else { return false }
            index += 1
            skipOptionalWhitespace()
            if atEnd { return false }
        }
        skipSpaces()
        return atEnd
    }

    mutating func member() -> Bool {
        if current == UInt8(ascii: "(") { return innerList() }
        return item()
    }

    mutating func innerList() -> Bool {
        guard current == UInt8(ascii: "(") else { return false }
        index += 1
        var items = 0
        while !atEnd {
            skipSpaces()
            if current == UInt8(ascii: ")") {
                index += 1
                return parameters()
            }
            items += 1
            guard items <= limits.maximumInnerListItems, item() else { return false }
            guard let next = current, next == 0x20 || next == UInt8(ascii: ")") else { return false }
        }
        return false
    }

    mutating func item() -> Bool {
        guard bareItem() != nil else { return false }
        return parameters()
    }

    mutating func parameters() -> Bool {
        var count = 0
        while current == UInt8(ascii: ";") {
            index += 1
            skipSpaces()
            guard key() != nil else { return false }
            if current == UInt8(ascii: "=") {
                index += 1
                guard bareItem() != nil else { return false }
            }
            // Repeated keys count once in the parser; counting each here only makes the fast
            // path give up earlier.
            count += 1
            guard count <= limits.maximumParameters else { return false }
        }
        return true
    }

    mutating func key() -> Range<Int>? {
        guard let first = current, SFCharacters.isKeyStart(first) else { return nil }
        let start = index
        var position = index + 1
        while position < bytes.count && SFCharacters.isKeyCharacter(bytes[position]) { position += 1 }
        index = position
        return start..<position
    }

    mutating func bareItem() -> Value? {
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return number()
        case UInt8(ascii: "\""):
            let start = index + 1
            var position = start
            var escaped = false
            let end = bytes.count
            while position < end {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    index = position + 1
                    return .string(start..<position, escaped: escaped)
                }
                if byte == UInt8(ascii: "\\") {
                    position += 1
                    guard position < end, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "\\")
                    else { return nil }
                    escaped = true
                } else if byte < 0x20 || byte > 0x7E {
                    return nil
                }
                position += 1
            }
            return nil
        case UInt8(ascii: ":"):
            index += 1
            let start = index
            while let byte = current, byte != UInt8(ascii: ":") {
                guard SFCharacters.isBase64Character(byte) else { return nil }
                index += 1
            }
            guard current == UInt8(ascii: ":") else { return nil }
            let range = start..<index
            guard Base64.decodedLength(UnsafeBufferPointer(rebasing: bytes[range])) != nil else { return nil }
            index += 1
            return .byteSequence(range)
        case UInt8(ascii: "?"):
            index += 1
            guard let value = current, value == UInt8(ascii: "0") || value == UInt8(ascii: "1") else { return nil }
            index += 1
            return .boolean(value == UInt8(ascii: "1"))
        case UInt8(ascii: "*"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            let start = index
            index += 1
            while let byte = current, SFCharacters.isTokenCharacter(byte) { index += 1 }
            return .token(start..<index)
        default:
            return nil
        }
    }

    private mutating func number() -> Value? {
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard let first = current, SFCharacters.isDigit(first) else { return nil }
        var value: Int64 = 0
        var digits = 0
        while let byte = current, SFCharacters.isDigit(byte) {
            digits += 1
            guard digits <= 15 else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            index += 1
        }
        guard current == UInt8(ascii: ".") else { return .integer(negative ? -value : value) }
        guard digits <= 12 else { return nil }
        index += 1
        var fraction = 0
        while let byte = current, SFCharacters.isDigit(byte) {
            fraction += 1
            guard fraction <= 3 else { return nil }
            index += 1
        }
        return fraction > 0 ? .decimal : nil
    }

    /// Whether the bytes in `range` equal a literal.
    func matches(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != literal.utf8Start[offset] {
            return false
        }
        return true
    }
}
