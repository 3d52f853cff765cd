/// One module's resilience settings, with defaults that suit a backend for frontend calling
/// other backends; the daemon fills them from its configuration per module.
///
/// See `docs/resilience.md` for each setting's reason.
public struct ResilienceSettings: Sendable, Equatable {
    /// Attempts, delays, `Retry-After` cap and what is retried.
    public var retry: RetrySettings
    /// The share of first attempts that may be retried. Default 0.2: under a total outage the
    /// upstream sees at most 20 % more calls than without retries.
    public var retryBudgetRatio: Double
    /// Retries allowed per second whatever the traffic. Default 1: a module called rarely can
    /// still retry its occasional reset connection.
    public var retryBudgetFloorPerSecond: Double
    /// How far back the budget counts. Default 10 s.
    public var retryBudgetWindow: Duration
    /// When the breakers open and how they recover.
    public var breaker: CircuitBreakerSettings
    /// The most calls of the module in flight. Default 64: far above what one upstream serves
    /// well from one instance, low enough that a stuck upstream cannot hold every task.
    public var concurrencyLimit: Int
    /// Whether identical concurrent reads share one call. Default on.
    public var singleFlight: Bool
    /// The deadline of a call made outside an app request. Default 30 s.
    public var fallbackDeadline: Duration
    /// More base URLs of the module's domain, tried in order after the client's own when it
    /// cannot be reached. Default none.
    public var failoverBaseURLs: [String]

    /// Creates settings; every parameter has the documented default.
    public init(
        retry: RetrySettings = .init(),
        retryBudgetRatio: Double = 0.2,
        retryBudgetFloorPerSecond: Double = 1,
        retryBudgetWindow: Duration = .seconds(10),
        breaker: CircuitBreakerSettings = .init(),
        concurrencyLimit: Int = 64,
        singleFlight: Bool = true,
        fallbackDeadline: Duration = .seconds(30),
        failoverBaseURLs: [String] = []
    ) {
        self.retry = retry
        self.retryBudgetRatio = retryBudgetRatio
        self.retryBudgetFloorPerSecond = retryBudgetFloorPerSecond
        self.retryBudgetWindow = retryBudgetWindow
        self.breaker = breaker
        self.concurrencyLimit = concurrencyLimit
        self.singleFlight = singleFlight
        self.fallbackDeadline = fallbackDeadline
        self.failoverBaseURLs = failoverBaseURLs
    }
}
