/// An RFC 8941 bare item: the value of an item or of a parameter.
public enum SFBareItem: Hashable, Sendable {
    /// An integer of at most 15 digits.
    case integer(Int64)
    /// A decimal with at most 12 integer and 3 fractional digits.
    case decimal(SFDecimal)
    /// A string of printable ASCII.
    case string(String)
    /// A token (an unquoted identifier such as `sha-256` or `application/json`).
    case token(String)
    /// A byte sequence, written as `:base64:`.
    case byteSequence([UInt8])
    /// A boolean, written as `?1` or `?0`.
    case boolean(Bool)

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an integer.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The bytes, when this is a byte sequence.
    public var byteSequenceValue: [UInt8]? {
        if case .byteSequence(let value) = self { return value }
        return nil
    }
}
