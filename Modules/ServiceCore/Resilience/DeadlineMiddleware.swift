public import HTTPTypes

/// Holds each call to the app request's ``RequestDeadline``: the attempt's timeout becomes the
/// smaller of the case's timeout and the time left, and no attempt starts when less than
/// ``minimumAttemptTime`` is left.
///
/// A call made outside an app request gets a deadline of its own, ``fallback`` from now, so its
/// retries are bounded too. It sits outside ``RetryMiddleware``, which applies the same rule
/// to each later attempt.
public struct DeadlineMiddleware: Middleware {
    /// The deadline of a call made with none bound.
    public let fallback: Duration
    /// The least time left that lets an attempt start.
    public let minimumAttemptTime: Duration
    private let clock: any ResilienceClock

    /// Creates the middleware.
    /// - Parameters:
    ///   - fallback: The deadline of a call made outside an app request; 30 s by default.
    ///   - minimumAttemptTime: The least time left to start an attempt; 50 ms by default.
    ///   - clock: The time source.
    public init(
        fallback: Duration = .seconds(30),
        minimumAttemptTime: Duration = .milliseconds(50),
        clock: any ResilienceClock = MonotonicClock()
    ) {
        self.fallback = fallback
        self.minimumAttemptTime = minimumAttemptTime
        self.clock = clock
    }

    /// Clips the request's timeout to the deadline, or throws when too little is left.
    public func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        try await RequestDeadline.run(within: fallback, clock: clock) {
            guard
                let timeout = RequestDeadline.attemptTimeout(
                    request.timeout ?? context.policy.timeout, minimum: minimumAttemptTime, clock: clock)
            else {
                throw ServiceError(
                    code: .deadlineExceeded,
                    module: context.module,
                    operation: context.operation,
                    message: "less than \(minimumAttemptTime) of the request's deadline was left; not sent",
                    request: request
                )
            }
            var request = request
            request.timeout = timeout
            return try await next(request, context)
        }
    }
}
