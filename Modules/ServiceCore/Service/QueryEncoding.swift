/// The rules for turning ``QueryParameters`` into text.
public struct QueryEncoding: Sendable, Hashable {
    /// How arrays are written.
    public enum ArrayEncoding: Sendable, Hashable {
        /// `tag=a&tag=b` (the default).
        case repeatedKey
        /// `tag[]=a&tag[]=b`.
        case brackets
        /// `tag=a,b`.
        case commaSeparated
    }

    /// How booleans are written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `true` / `false` (the default).
        case literal
        /// `1` / `0`.
        case numeric
    }

    /// How arrays are written.
    public var arrays: ArrayEncoding
    /// How booleans are written.
    public var bools: BoolEncoding

    /// Creates rules; the defaults are repeated keys and `true`/`false`.
    public init(arrays: ArrayEncoding = .repeatedKey, bools: BoolEncoding = .literal) {
        self.arrays = arrays
        self.bools = bools
    }

    /// Repeated keys and `true`/`false`.
    public static let `default` = QueryEncoding()
}
