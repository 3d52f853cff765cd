public import HTTPTypes

/// How a service case may be sent: its timeout, whether it may be retried, and which status
/// codes count as success.
///
/// Each case gets ``default(for:)`` unless its service overrides `policy`.
public struct RequestPolicy: Sendable, Equatable {
    /// Whether a request may be sent again after a failure.
    public enum RetryClass: Sendable, Equatable {
        /// Safe to repeat as is (RFC 9110 idempotent methods).
        case idempotent
        /// Safe to repeat only with the same `Idempotency-Key` header on every attempt.
        case requiresIdempotencyKey
        /// Never repeated automatically.
        case never
    }

    /// How long one attempt may take.
    public var timeout: Duration
    /// Whether the request may be retried.
    public var retry: RetryClass
    /// The status codes that count as success; any other is an
    /// ``ServiceError/Code-swift.struct/unacceptableStatus`` error.
    public var acceptableStatus: Range<Int>

    /// Creates a policy.
    public init(timeout: Duration = .seconds(10), retry: RetryClass, acceptableStatus: Range<Int> = 200..<300) {
        self.timeout = timeout
        self.retry = retry
        self.acceptableStatus = acceptableStatus
    }

    /// The default for a method: 10 s, `idempotent` for RFC 9110 idempotent methods and
    /// `never` for the others, 2xx accepted.
    public static func `default`(for method: HTTPMethod) -> RequestPolicy {
        RequestPolicy(retry: method.isIdempotent ? .idempotent : .never)
    }
}
