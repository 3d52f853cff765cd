/// The answer of a ``RateLimitStore`` for one request.
struct RateLimitDecision: Sendable, Equatable {
    /// Whether the request may proceed (and was counted).
    var allowed: Bool
    /// Requests the client may still send at once.
    var remaining: Int
    /// Time until the client's allowance is whole again.
    var resetAfter: Duration
    /// For a refused request, the time until one more request would be allowed.
    var retryAfter: Duration?

    /// The `RateLimit` member for `policy`: `"<name>";r=<remaining>;t=<seconds until reset>`.
    func field(for policy: RateLimitPolicy) -> String {
        "\"\(policy.name)\";r=\(remaining);t=\(Self.wholeSeconds(resetAfter))"
    }

    /// `Retry-After` in whole seconds, at least 1.
    var retryAfterSeconds: Int64 { max(1, Self.wholeSeconds(retryAfter ?? .zero)) }

    /// `duration` rounded up to whole seconds.
    static func wholeSeconds(_ duration: Duration) -> Int64 {
        let nanoseconds = duration.nanoseconds
        return nanoseconds <= 0 ? 0 : (nanoseconds + 999_999_999) / 1_000_000_000
    }
}
