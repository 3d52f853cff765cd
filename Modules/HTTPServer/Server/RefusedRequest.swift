/// A request (or a connection) the server refused itself, before any handler saw it: bad
/// framing, a limit, a deadline. Handed to the observer given to ``HTTPServer``, so the owner
/// can count it and log it like any request. It carries no header value and no target.
public struct RefusedRequest: Sendable {
    /// Why: one of ``HTTPServer/refusalReasons`` (a closed set, fit for a metric label).
    public var reason: String
    /// The status answered, or 0 when the connection was closed without an answer (a
    /// connection limit at accept).
    public var status: Int
    /// The method when it was read and is a standard one (`GET`, `POST`...), `other` for any
    /// other method, or an empty string when the refusal came before the method was read.
    public var method: String
    /// From the request's first byte (or the connection's opening) to the refusal.
    public var duration: Duration
    /// The client's address as the connection reported it.
    var remote: RemoteAddress

    /// The client's numeric IP address, or an empty string when unknown.
    public var remoteAddress: String { remote.text }

    /// The methods reported by name; others are `other`.
    static let standardMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE",
    ]
}

extension HTTPServer {
    /// Every ``RefusedRequest/reason`` the server reports.
    public static let refusalReasons: [String] = Refusal.Reason.allCases.map(\.rawValue)
}
