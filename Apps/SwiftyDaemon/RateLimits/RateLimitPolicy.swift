/// A quota: at most ``quota`` requests per ``window``, spread evenly (GCRA), so a client that was
/// idle may send ``quota`` at once and then one per `window / quota`.
///
/// Sent to clients as `RateLimit-Policy: "<name>";q=<quota>;w=<window seconds>` (IETF httpapi
/// rate-limit fields draft).
struct RateLimitPolicy: Sendable, Equatable {
    /// The policy's name in the `RateLimit-Policy` and `RateLimit` fields.
    var name: String
    /// Requests allowed per window, and the burst an idle client may send at once; at least 1.
    var quota: Int
    /// The window, at least one second and a whole number of seconds (the fields carry seconds).
    var window: Duration

    /// The time one request uses up: `window / quota`, in nanoseconds.
    var emissionInterval: Int64 { window.nanoseconds / Int64(quota) }

    /// The `RateLimit-Policy` member for this policy.
    var policyField: String { "\"\(name)\";q=\(quota);w=\(window.components.seconds)" }

    /// What is wrong with the policy, or `nil`.
    var problem: String? {
        if quota < 1 || quota > 1_000_000 { return "quota must be from 1 to 1000000" }
        let (seconds, attoseconds) = window.components
        if seconds < 1 || seconds > 86_400 || attoseconds != 0 {
            return "window must be a whole number of seconds from 1 to 86400"
        }
        return nil
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
