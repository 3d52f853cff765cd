import AppLogging
public import HTTPTypes

/// Sends a failed call again when its case's retry class allows it, with exponential backoff,
/// full jitter, `Retry-After`, a per-module ``RetryBudget`` and the request's deadline.
///
/// Retried: connection failures, timeouts of an attempt, and the statuses of
/// ``RetrySettings/retryableStatuses``; only for ``RequestPolicy/RetryClass/idempotent`` cases and
/// for ``RequestPolicy/RetryClass/requiresIdempotencyKey`` cases whose request carries the key
/// (the same request, so the same key, goes with every attempt); never for
/// ``RequestPolicy/RetryClass/never``. Each attempt passes the inner middlewares again, so
/// signing (innermost) signs it afresh, and carries its number in ``MiddlewareContext/attempt``.
///
/// The wait before retry n (from 1) is a uniform draw in `0...min(maxDelay, baseDelay × 2ⁿ⁻¹)`
/// (full jitter), or the upstream's `Retry-After` when it gives one; a `Retry-After` beyond
/// ``RetrySettings/maxRetryAfter`` ends the retries. No retry starts when the wait would leave
/// less than ``RetrySettings/minimumAttemptTime`` of the ``RequestDeadline``.
public struct RetryMiddleware: Middleware {
    /// The settings.
    public let settings: RetrySettings
    /// The module's budget, or `nil` for none.
    public let budget: RetryBudget?
    private let clock: any ResilienceClock
    private let random: RandomSource
    /// ``RetrySettings/retryableStatuses`` as a short list: a handful of numbers compared in turn
    /// cost less than hashing each answer's status into the set.
    private let retryableStatuses: [Int]

    /// Creates the middleware.
    /// - Parameters:
    ///   - settings: Attempts, delays and what is retried.
    ///   - budget: The module's retry budget, shared by its calls; `nil` for none.
    ///   - clock: The time source for waits and the deadline.
    ///   - random: The jitter source.
    public init(
        settings: RetrySettings = .init(),
        budget: RetryBudget? = nil,
        clock: any ResilienceClock = MonotonicClock(),
        random: RandomSource = .system
    ) {
        self.settings = settings
        self.budget = budget
        self.clock = clock
        self.random = random
        self.retryableStatuses = settings.retryableStatuses.sorted()
    }

    /// Sends the request, retrying as described on the type.
    public func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        guard settings.maxAttempts > 1, mayRetry(request, policy: context.policy) else {
            return try await next(request, context)
        }
        budget?.recordFirstAttempt()
        // The first attempt passes the caller's request and context on as they are: most calls
        // end here, and only a retry needs copies it can change.
        let first = await Self.attempt(request, context, next)
        guard let delay = retryDelay(after: first, attempt: context.attempt) else { return try first.get() }
        return try await retry(request, context, after: first, delay: delay, next)
    }

    /// The outcome of one attempt, error included.
    private static func attempt(
        _ request: HTTPRequest,
        _ context: MiddlewareContext,
        _ next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async -> Result<HTTPResponse, any Error> {
        do {
            return .success(try await next(request, context))
        } catch {
            return .failure(error)
        }
    }

    /// The wait before the attempt after `attempt`, or `nil` when the outcome is final: not
    /// retryable, the last attempt allowed, or the call cancelled.
    private func retryDelay(after outcome: Result<HTTPResponse, any Error>, attempt: Int) -> Duration? {
        guard attempt < settings.maxAttempts, !Task.isCancelled else { return nil }
        return delay(after: outcome, retry: attempt)
    }

    /// The retries after a first attempt whose outcome is retried after `delay`.
    private func retry(
        _ request: HTTPRequest,
        _ context: MiddlewareContext,
        after first: Result<HTTPResponse, any Error>,
        delay firstDelay: Duration,
        _ next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var request = request
        var context = context
        var outcome = first
        var delay = firstDelay
        while true {
            let caseTimeout = context.policy.timeout
            if RequestDeadline.current != nil {
                let left = RequestDeadline.current!.remaining(on: clock) - delay
                guard left >= settings.minimumAttemptTime else { return try outcome.get() }
            }
            guard budget?.tryRetry() ?? true else { return try outcome.get() }
            if delay > .zero { try await clock.sleep(for: delay) }
            guard
                let timeout = RequestDeadline.attemptTimeout(
                    caseTimeout, minimum: settings.minimumAttemptTime, clock: clock)
            else { return try outcome.get() }
            request.timeout = timeout
            context.attempt += 1
            context.logger.debug("retrying, attempt \(context.attempt) after \(delay)")
            outcome = await Self.attempt(request, context, next)
            guard let after = retryDelay(after: outcome, attempt: context.attempt) else { return try outcome.get() }
            delay = after
        }
    }

    /// Whether the case's retry class lets this request be sent again.
    private func mayRetry(_ request: HTTPRequest, policy: RequestPolicy) -> Bool {
        switch policy.retry {
        case .idempotent: true
        case .requiresIdempotencyKey: request.headers[settings.idempotencyKeyHeader].map { !$0.isEmpty } ?? false
        case .never: false
        }
    }

    /// The wait before retry number `retry`, or `nil` when the outcome is not retried.
    private func delay(after outcome: Result<HTTPResponse, any Error>, retry: Int) -> Duration? {
        switch outcome {
        case .success(let response):
            guard retryableStatuses.contains(response.status) else { return nil }
            if let field = response.headers["Retry-After"],
                let asked = RetryAfter.parse(field, now: clock.wallTime)
            {
                return asked <= settings.maxRetryAfter ? asked : nil
            }
        case .failure(let error):
            guard let error = error as? TransportError,
                [.connectionFailed, .connectionClosed, .timedOut].contains(error.code)
            else { return nil }
        }
        return backoff(retry: retry)
    }

    /// Full jitter: a uniform draw up to the capped exponential delay.
    func backoff(retry: Int) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let ceiling = min(settings.maxDelay, settings.baseDelay * (1 << exponent))
        return ceiling * random.next()
    }
}
