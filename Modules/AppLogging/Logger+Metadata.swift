extension Logger {
    /// Structured metadata: string keys to values.
    public typealias Metadata = [String: MetadataValue]

    /// One metadata value: a string, an array or a dictionary of values.
    public enum MetadataValue: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringLiteral,
        ExpressibleByStringInterpolation, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
    {
        /// A string.
        case string(String)
        /// An ordered list of values.
        case array([MetadataValue])
        /// Nested metadata.
        case dictionary(Metadata)

        /// Creates a string value from a literal.
        public init(stringLiteral value: String) { self = .string(value) }

        /// Creates an array value from a literal.
        public init(arrayLiteral elements: MetadataValue...) { self = .array(elements) }

        /// Creates a dictionary value from a literal.
        public init(dictionaryLiteral elements: (String, MetadataValue)...) {
            self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, new in new }))
        }

        /// The value as plain text.
        public var description: String {
            switch self {
            case .string(let value):
                value
            case .array(let values):
                "[" + values.map(\.description).joined(separator: ", ") + "]"
            case .dictionary(let values):
                "[" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
            }
        }
    }
}
