/// A parsed JSON value (RFC 8259) that keeps what typed decoding loses: a number's exact text,
/// member order, and whether a member was present.
///
/// The sandbox reads request bodies through it so that it can check the contract exactly
/// (`amountMinor` is an integer with no fraction or exponent, duplicate members are refused) and
/// fingerprint a body for idempotency regardless of member order and white space.
enum JSONValue: Equatable, Sendable {
    /// One member of an object, in the order received.
    struct Member: Equatable, Sendable {
        var name: String
        var value: JSONValue
    }

    case null
    case bool(Bool)
    /// A number, as its exact text (`1250`, `-0.5e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// The member named `name` of an object, or `nil` when absent or not an object.
    subscript(member name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// Whether this is an object.
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// A short name of the value's kind, for error messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
