/// Parses RFC 8941 structured field values strictly, within size limits.
///
/// Anything the RFC's parsing algorithms reject is a ``StructuredFieldError``, never a crash;
/// input over ``Limits`` is rejected before it is read. Leading and trailing spaces are
/// allowed, as the RFC says. When a field has several lines, join their values with `", "`
/// first.
public enum SFParser {
    /// Bounds on what the parser accepts.
    public struct Limits: Sendable, Equatable {
        /// The longest text accepted, in bytes.
        public var maximumLength: Int
        /// The most members in a list or dictionary.
        public var maximumMembers: Int
        /// The most items in one inner list.
        public var maximumInnerListItems: Int
        /// The most parameters on one item or inner list.
        public var maximumParameters: Int

        /// Creates limits.
        public init(
            maximumLength: Int = 16_384,
            maximumMembers: Int = 256,
            maximumInnerListItems: Int = 256,
            maximumParameters: Int = 64
        ) {
            self.maximumLength = maximumLength
            self.maximumMembers = maximumMembers
            self.maximumInnerListItems = maximumInnerListItems
            self.maximumParameters = maximumParameters
        }

        /// 16 KiB of text, 256 members, 256 inner-list items, 64 parameters.
        public static let `default` = Limits()
    }

    /// Parses a dictionary (an empty text is an empty dictionary).
    /// - Throws: ``StructuredFieldError``.
    public static func parseDictionary(
        _ text: String,
        limits: Limits = .default
    ) throws(StructuredFieldError) -> SFDictionary {
        try scan(text, limits: limits) { (scanner) throws(StructuredFieldError) in try scanner.parseDictionary() }
    }

    /// Parses a list (an empty text is an empty list).
    /// - Throws: ``StructuredFieldError``.
    public static func parseList(_ text: String, limits: Limits = .default) throws(StructuredFieldError) -> SFList {
        try scan(text, limits: limits) { (scanner) throws(StructuredFieldError) in try scanner.parseList() }
    }

    /// Parses an item.
    /// - Throws: ``StructuredFieldError``.
    public static func parseItem(_ text: String, limits: Limits = .default) throws(StructuredFieldError) -> SFItem {
        try scan(text, limits: limits) { (scanner) throws(StructuredFieldError) in try scanner.parseItem() }
    }

    /// Runs a top-level parse over the text's UTF-8 bytes: leading spaces, the value, trailing
    /// spaces, end of text.
    static func scan<T>(
        _ text: String,
        limits: Limits,
        _ body: (inout SFScanner) throws(StructuredFieldError) -> T
    ) throws(StructuredFieldError) -> T {
        guard text.utf8.count <= limits.maximumLength else {
            throw StructuredFieldError(
                .tooLong, "the value is \(text.utf8.count) bytes, more than the limit of \(limits.maximumLength)")
        }
        var copy = text
        let result = copy.withUTF8 { bytes -> Result<T, StructuredFieldError> in
            var scanner = SFScanner(bytes: bytes, limits: limits)
            return Result { () throws(StructuredFieldError) -> T in
                scanner.skipSpaces()
                let value = try body(&scanner)
                scanner.skipSpaces()
                guard scanner.atEnd else {
                    throw scanner.failure("unexpected \(scanner.describeCurrent()) after the value")
                }
                return value
            }
        }
        return try result.get()
    }
}

/// The RFC 8941 §4.2 parsing algorithms over a byte buffer.
struct SFScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: SFParser.Limits
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, limits: SFParser.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    var atEnd: Bool { index >= bytes.count }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func failure(_ message: String) -> StructuredFieldError {
        StructuredFieldError(.invalidSyntax, message, offset: index)
    }

    /// Names the byte at the current position for an error message.
    func describeCurrent() -> String {
        guard let byte = current else { return "end of text" }
        if byte >= 0x21 && byte <= 0x7E { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    mutating func skipSpaces() {
        while index < bytes.count && bytes[index] == 0x20 { index += 1 }
    }

    mutating func skipOptionalWhitespace() {
        while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
    }

    // MARK: Lists and dictionaries

    mutating func parseList() throws(StructuredFieldError) -> SFList {
        var members: [SFMember] = []
        while !atEnd {
            guard members.count < limits.maximumMembers else {
                throw StructuredFieldError(
                    .tooManyElements, "more than \(limits.maximumMembers) list members", offset: index)
            }
            members.append(try parseItemOrInnerList())
            skipOptionalWhitespace()
            if atEnd { break }
            guard current == UInt8(ascii: ",") else { throw failure("expected ',' but found \(describeCurrent())") }
            index += 1
            skipOptionalWhitespace()
            if atEnd { throw failure("a trailing ',' ends the list") }
        }
        return SFList(members)
    }

    mutating func parseDictionary() throws(StructuredFieldError) -> SFDictionary {
        var dictionary = SFDictionary()
        while !atEnd {
            let key = try parseKey()
            let member: SFMember
            if current == UInt8(ascii: "=") {
                index += 1
                member = try parseItemOrInnerList()
            } else {
                member = .item(SFItem(.boolean(true), parameters: try parseParameters()))
            }
            if dictionary.set(key, member) && dictionary.count > limits.maximumMembers {
                throw StructuredFieldError(
                    .tooManyElements, "more than \(limits.maximumMembers) dictionary members", offset: index)
            }
            skipOptionalWhitespace()
            if atEnd { break }
            guard current == UInt8(ascii: ",") else { throw failure("expected ',' but found \(describeCurrent())") }
            index += 1
            skipOptionalWhitespace()
            if atEnd { throw failure("a trailing ',' ends the dictionary") }
        }
        return dictionary
    }

    mutating func parseItemOrInnerList() throws(StructuredFieldError) -> SFMember {
        if current == UInt8(ascii: "(") { return .innerList(try parseInnerList()) }
        return .item(try parseItem())
    }

    mutating func parseInnerList() throws(StructuredFieldError) -> SFInnerList {
        guard current == UInt8(ascii: "(") else { throw failure("expected '(' but found \(describeCurrent())") }
        index += 1
        var items: [SFItem] = []
        while !atEnd {
            skipSpaces()
            if current == UInt8(ascii: ")") {
                index += 1
                return SFInnerList(items, parameters: try parseParameters())
            }
            guard items.count < limits.maximumInnerListItems else {
                throw StructuredFieldError(
                    .tooManyElements, "more than \(limits.maximumInnerListItems) inner-list items", offset: index)
            }
            items.append(try parseItem())
            guard let next = current, next == 0x20 || next == UInt8(ascii: ")") else {
                throw failure("expected ' ' or ')' in an inner list but found \(describeCurrent())")
            }
        }
        throw failure("an inner list is not closed with ')'")
    }

    // MARK: Items and parameters

    mutating func parseItem() throws(StructuredFieldError) -> SFItem {
        let bareItem = try parseBareItem()
        return SFItem(bareItem, parameters: try parseParameters())
    }

    mutating func parseParameters() throws(StructuredFieldError) -> SFParameters {
        var parameters = SFParameters()
        while current == UInt8(ascii: ";") {
            index += 1
            skipSpaces()
            let key = try parseKey()
            var value = SFBareItem.boolean(true)
            if current == UInt8(ascii: "=") {
                index += 1
                value = try parseBareItem()
            }
            if parameters.set(key, value) && parameters.count > limits.maximumParameters {
                throw StructuredFieldError(
                    .tooManyElements, "more than \(limits.maximumParameters) parameters", offset: index)
            }
        }
        return parameters
    }

    mutating func parseKey() throws(StructuredFieldError) -> String {
        guard let first = current, SFCharacters.isKeyStart(first) else {
            throw failure("expected a key (a lowercase letter or '*') but found \(describeCurrent())")
        }
        let start = index
        index += 1
        while let byte = current, SFCharacters.isKeyCharacter(byte) { index += 1 }
        return text(from: start)
    }

    mutating func parseBareItem() throws(StructuredFieldError) -> SFBareItem {
        guard let byte = current else { throw failure("expected a value but the text ended") }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: ":"): return .byteSequence(try parseByteSequence())
        case UInt8(ascii: "?"): return .boolean(try parseBoolean())
        case UInt8(ascii: "*"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            return .token(parseToken())
        default: throw failure("expected a value but found \(describeCurrent())")
        }
    }

    mutating func parseNumber() throws(StructuredFieldError) -> SFBareItem {
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard let first = current, SFCharacters.isDigit(first) else {
            throw failure("expected a digit but found \(describeCurrent())")
        }
        var integerPart: Int64 = 0
        var integerDigits = 0
        while let byte = current, SFCharacters.isDigit(byte) {
            integerDigits += 1
            guard integerDigits <= 15 else { throw failure("an integer has more than 15 digits") }
            integerPart = integerPart * 10 + Int64(byte - UInt8(ascii: "0"))
            index += 1
        }
        guard current == UInt8(ascii: ".") else { return .integer(negative ? -integerPart : integerPart) }
        guard integerDigits <= 12 else { throw failure("a decimal has more than 12 integer digits") }
        index += 1
        var fraction: Int64 = 0
        var fractionDigits = 0
        while let byte = current, SFCharacters.isDigit(byte) {
            fractionDigits += 1
            guard fractionDigits <= 3 else { throw failure("a decimal has more than 3 fractional digits") }
            fraction = fraction * 10 + Int64(byte - UInt8(ascii: "0"))
            index += 1
        }
        guard fractionDigits > 0 else { throw failure("a decimal ends with '.'") }
        for _ in fractionDigits..<3 { fraction *= 10 }
        let thousandths = integerPart * 1000 + fraction
        return .decimal(SFDecimal(thousandths: negative ? -thousandths : thousandths))
    }

    mutating func parseString() throws(StructuredFieldError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 && byte <= 0x7E else { throw failure("a string contains \(describeCurrent())") }
            index += 1
        }
        if current == UInt8(ascii: "\"") {
            let value = text(from: start)
            index += 1
            return value
        }
        var value = Array(bytes[start..<index])
        while let byte = current {
            index += 1
            if byte == UInt8(ascii: "\\") {
                guard let escaped = current, escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else {
                    throw failure("a string has '\\' before \(describeCurrent()); only '\"' and '\\' may be escaped")
                }
                value.append(escaped)
                index += 1
            } else if byte == UInt8(ascii: "\"") {
                return String(decoding: value, as: UTF8.self)
            } else {
                guard byte >= 0x20 && byte <= 0x7E else {
                    index -= 1
                    throw failure("a string contains \(describeCurrent())")
                }
                value.append(byte)
            }
        }
        throw failure("a string is not closed with '\"'")
    }

    mutating func parseToken() -> String {
        let start = index
        index += 1
        while let byte = current, SFCharacters.isTokenCharacter(byte) { index += 1 }
        return text(from: start)
    }

    mutating func parseByteSequence() throws(StructuredFieldError) -> [UInt8] {
        index += 1  // opening colon
        let start = index
        while let byte = current, byte != UInt8(ascii: ":") {
            guard SFCharacters.isBase64Character(byte) else {
                throw failure("a byte sequence contains \(describeCurrent()), which is not base64")
            }
            index += 1
        }
        guard current == UInt8(ascii: ":") else { throw failure("a byte sequence is not closed with ':'") }
        let encoded = UnsafeBufferPointer(rebasing: bytes[start..<index])
        guard let decoded = Base64.decode(encoded) else {
            throw StructuredFieldError(.invalidSyntax, "a byte sequence is not valid base64", offset: start)
        }
        index += 1
        return decoded
    }

    mutating func parseBoolean() throws(StructuredFieldError) -> Bool {
        index += 1  // question mark
        switch current {
        case UInt8(ascii: "1"):
            index += 1
            return true
        case UInt8(ascii: "0"):
            index += 1
            return false
        default: throw failure("a boolean is '?1' or '?0', not '?' then \(describeCurrent())")
        }
    }

    func text(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }
}
