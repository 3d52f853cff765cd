/// Where rate-limit state lives: one record per key (a route class and a user or a client
/// address), kept by the store for as long as it matters.
///
/// ``InMemoryRateLimitStore`` serves one daemon; a store shared by a fleet of daemons implements
/// the same GCRA step atomically on its side, so every daemon counts against one allowance.
protocol RateLimitStore: Sendable {
    /// Counts one request for `key` under `policy` if the allowance permits it.
    /// - Throws: When the store cannot be reached (the caller decides whether to fail open).
    func acquire(_ key: String, policy: RateLimitPolicy) async throws -> RateLimitDecision
}
