public import AppLogging

/// One module's resilience middlewares and their shared state (budget, breakers, limit,
/// in-flight reads), built once per module at the composition root.
///
/// ```swift
/// let stack = ResilienceStack(module: "UserModule", baseURL: url, settings: settings, logger: logger)
/// let client = try ServiceClient<UserService>(
///     baseURL: url,
///     transport: transport,
///     middlewares: stack.middlewares(metrics: metrics, signing: signing)
/// )
/// ```
///
/// The chain, outermost first: metrics, single-flight, deadline, concurrency limit, retry with
/// its budget, failover and breaker, credentials, signing. Single-flight sits outside the
/// deadline and retries so waiters share the whole retried call; the limit sits outside the
/// retries so a call holds one slot however often it is retried; the breaker sits inside the
/// retries so each attempt counts and an open breaker stops them; credentials and signing are
/// innermost so every attempt carries a current credential and a fresh signature.
public final class ResilienceStack: Sendable {
    /// The module.
    public let module: String
    /// The settings it was built with.
    public let settings: ResilienceSettings
    /// The module's retry budget.
    public let budget: RetryBudget
    /// The deadline middleware.
    public let deadline: DeadlineMiddleware
    /// The module's bulkhead.
    public let concurrencyLimit: ConcurrencyLimitMiddleware
    /// The retry middleware.
    public let retry: RetryMiddleware
    /// The failover across hosts with a breaker each.
    public let failover: FailoverMiddleware
    /// The sharing of identical reads, or `nil` when turned off.
    public let singleFlight: SingleFlightMiddleware?

    /// Builds a module's stack.
    /// - Parameters:
    ///   - module: The module's name.
    ///   - baseURL: The client's base URL (the first host);
    ///     ``ResilienceSettings/failoverBaseURLs`` follow it.
    ///   - settings: The module's settings.
    ///   - clock: The time source of every middleware.
    ///   - random: The jitter source.
    ///   - logger: Where breaker transitions are logged.
    public init(
        module: String,
        baseURL: String,
        settings: ResilienceSettings = .init(),
        clock: any ResilienceClock = MonotonicClock(),
        random: RandomSource = .system,
        logger: Logger
    ) {
        self.module = module
        self.settings = settings
        self.budget = RetryBudget(
            ratio: settings.retryBudgetRatio,
            floorPerSecond: settings.retryBudgetFloorPerSecond,
            window: settings.retryBudgetWindow,
            clock: clock
        )
        self.deadline = DeadlineMiddleware(
            fallback: settings.fallbackDeadline,
            minimumAttemptTime: settings.retry.minimumAttemptTime,
            clock: clock
        )
        self.concurrencyLimit = ConcurrencyLimitMiddleware(limit: settings.concurrencyLimit)
        self.retry = RetryMiddleware(settings: settings.retry, budget: budget, clock: clock, random: random)
        self.failover = FailoverMiddleware(
            module: module,
            baseURLs: [baseURL] + settings.failoverBaseURLs,
            settings: settings.breaker,
            clock: clock,
            logger: logger
        )
        self.singleFlight = settings.singleFlight ? SingleFlightMiddleware() : nil
    }

    /// The chain in the documented order, with the caller's metrics (outermost), credentials and
    /// signing (innermost) middlewares where they belong.
    public func middlewares(
        metrics: (any Middleware)? = nil,
        credentials: (any Middleware)? = nil,
        signing: (any Middleware)? = nil
    ) -> [any Middleware] {
        let chain: [(any Middleware)?] = [
            metrics, singleFlight, deadline, concurrencyLimit, retry, failover, credentials, signing,
        ]
        return chain.compactMap { $0 }
    }

    /// Each host's breaker state, for `/metrics`.
    public var breakerStates: [(host: String, state: CircuitBreaker.State)] { failover.states }
}
