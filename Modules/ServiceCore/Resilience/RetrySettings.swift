/// How ``RetryMiddleware`` retries; every default is chosen for a backend calling other backends
/// within an app request.
public struct RetrySettings: Sendable, Equatable {
    /// Attempts in all, the first included. Default 3: two retries absorb a reset connection or
    /// a brief 503 without multiplying a real outage's load by more than three.
    public var maxAttempts: Int
    /// The backoff before the first retry, doubled for each later one. Default 100 ms: long
    /// enough for a restarting instance or a new connection, short against a request deadline.
    public var baseDelay: Duration
    /// The largest backoff. Default 2 s: past that the app request's deadline is usually gone.
    public var maxDelay: Duration
    /// The longest `Retry-After` honoured; an upstream asking for more is not retried. Default
    /// 5 s: waiting longer holds the app request hostage.
    public var maxRetryAfter: Duration
    /// The least time that must be left of the request deadline to start an attempt. Default
    /// 50 ms: a shorter attempt would almost surely time out.
    public var minimumAttemptTime: Duration
    /// The header whose presence makes a ``RequestPolicy/RetryClass/requiresIdempotencyKey``
    /// case retryable. Default `Idempotency-Key`.
    public var idempotencyKeyHeader: String
    /// The statuses retried. Default 429, 502, 503, 504: the upstream did not process the
    /// request or asked to be called later (500 may have done half the work).
    public var retryableStatuses: Set<Int>

    /// Creates settings; every parameter has the documented default.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(100),
        maxDelay: Duration = .seconds(2),
        maxRetryAfter: Duration = .seconds(5),
        minimumAttemptTime: Duration = .milliseconds(50),
        idempotencyKeyHeader: String = "Idempotency-Key",
        retryableStatuses: Set<Int> = [429, 502, 503, 504]
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.minimumAttemptTime = minimumAttemptTime
        self.idempotencyKeyHeader = idempotencyKeyHeader
        self.retryableStatuses = retryableStatuses
    }
}
