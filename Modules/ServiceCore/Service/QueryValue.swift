/// A typed query or form value.
///
/// How values become text:
/// - strings as is (then percent-encoded);
/// - integers in decimal; doubles in Swift's shortest round-trip form (`0.1`, `1e-07`);
/// - booleans as `true` / `false` (``QueryEncoding/BoolEncoding/literal``, the default) or `1` / `0`
///   (``QueryEncoding/BoolEncoding/numeric``);
/// - arrays as the same name repeated, `tag=a&tag=b` (``QueryEncoding/ArrayEncoding/repeatedKey``,
///   the default), or with brackets `tag[]=a&tag[]=b`, or comma-joined `tag=a,b`; an empty
///   array adds nothing.
public enum QueryValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral, ExpressibleByArrayLiteral
{
    /// Text.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// Several values under one name.
    case array([QueryValue])

    /// Creates a string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an integer value.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// Creates a boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates a floating-point value.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates an array value.
    public init(arrayLiteral elements: QueryValue...) { self = .array(elements) }

    /// The scalar's text, or `nil` for an array.
    func text(bools: QueryEncoding.BoolEncoding) -> String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): value.description
        case .bool(let value): bools == .literal ? (value ? "true" : "false") : (value ? "1" : "0")
        case .array: nil
        }
    }
}
