/// An HTTP request method: the standard ones as constants, any other token through
/// ``init(rawValue:)``.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The method token as sent on the wire, for example `GET`.
    public let rawValue: String

    /// Creates a method from its token. Tokens are case-sensitive (RFC 9110 §9.1).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from a literal token.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether RFC 9110 §9.2.2 calls the method idempotent (`GET`, `HEAD`, `PUT`, `DELETE`,
    /// `OPTIONS`, `TRACE`).
    public var isIdempotent: Bool {
        // By length first, so a method is compared with one or two candidates only.
        switch rawValue.utf8.count {
        case 3: rawValue == "GET" || rawValue == "PUT"
        case 4: rawValue == "HEAD"
        case 5: rawValue == "TRACE"
        case 6: rawValue == "DELETE"
        case 7: rawValue == "OPTIONS"
        default: false
        }
    }

    /// The token.
    public var description: String { rawValue }
}
