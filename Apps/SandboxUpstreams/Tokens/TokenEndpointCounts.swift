/// What the sandbox's token endpoint and the upstreams requiring its tokens have seen, for tests.
public struct TokenEndpointCounts: Sendable, Equatable {
    /// Requests to the token endpoint, answered or not (faults included).
    public var requests = 0
    /// Access tokens issued.
    public var issued = 0
    /// Upstream requests refused for a missing, unknown, expired or revoked access token.
    public var rejected = 0

    /// Creates counts, zero unless given.
    public init(requests: Int = 0, issued: Int = 0, rejected: Int = 0) {
        self.requests = requests
        self.issued = issued
        self.rejected = rejected
    }
}
