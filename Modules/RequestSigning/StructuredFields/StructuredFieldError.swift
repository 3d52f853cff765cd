/// A structured field value (RFC 8941) that could not be parsed or serialised.
public struct StructuredFieldError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was. A struct of constants, so new codes do not break users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The text does not follow RFC 8941 (a stray character, an unbalanced parenthesis, a bad
        /// byte sequence, a trailing comma).
        public static let invalidSyntax = Code("invalid syntax")
        /// The text is longer than the parser's limit.
        public static let tooLong = Code("too long")
        /// More members, inner-list items or parameters than the parser's limits allow.
        public static let tooManyElements = Code("too many elements")
        /// A value cannot be serialised (an integer out of range, a string with a control
        /// character, a key or token with a character the syntax forbids).
        public static let invalidValue = Code("invalid value")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure it was.
    public var code: Code
    /// The byte offset in the parsed text where the problem was found, when parsing.
    public var offset: Int?
    /// A description for a person.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// `code: message (at byte N)`.
    public var description: String {
        if let offset { return "\(code): \(message) (at byte \(offset))" }
        return "\(code): \(message)"
    }
}
