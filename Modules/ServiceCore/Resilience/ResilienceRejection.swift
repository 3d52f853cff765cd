/// Why a resilience middleware refused a call without sending it: the ``ServiceError/underlying``
/// of a ``ServiceError/Code-swift.struct/circuitOpen`` or
/// ``ServiceError/Code-swift.struct/overloaded`` error.
///
/// The daemon answers such a failure with 503 and `Retry-After: <retryAfter>`, naming ``module``.
public struct ResilienceRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which limit refused the call.
    public enum Reason: String, Sendable, Equatable {
        /// Every host of the module's domain has an open circuit breaker.
        case circuitOpen = "circuit open"
        /// The module's concurrency limit was reached.
        case concurrencyLimit = "concurrency limit reached"
    }

    /// The feature module, for example `UserModule`.
    public var module: String
    /// Which limit refused the call.
    public var reason: Reason
    /// When trying again makes sense.
    public var retryAfter: Duration

    /// Creates a rejection.
    public init(module: String, reason: Reason, retryAfter: Duration) {
        self.module = module
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// `UserModule: circuit open, retry after 5 seconds`.
    public var description: String { "\(module): \(reason.rawValue), retry after \(retryAfter)" }

    /// ``retryAfter`` in whole seconds rounded up, at least 1: the `Retry-After` header's value.
    public var retryAfterSeconds: Int {
        let (seconds, attoseconds) = retryAfter.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }
}
