/// When a ``CircuitBreaker`` opens and how it recovers.
public struct CircuitBreakerSettings: Sendable, Equatable {
    /// The share of failed calls in the window that opens the breaker. Default 0.5: a domain
    /// failing half its calls is down for the app's purposes.
    public var failureRatio: Double
    /// The fewest calls in the window before the ratio counts. Default 20: a couple of failures
    /// of a quiet module do not cut it off.
    public var minimumCalls: Int
    /// How far back calls count. Default 10 s: recent enough to react within seconds.
    public var window: Duration
    /// How long the breaker stays open before letting probes through. Default 5 s: short enough
    /// to notice a recovered domain quickly, long enough to let it recover.
    public var openDuration: Duration
    /// How many probe calls may be in flight while half-open. Default 1.
    public var halfOpenProbes: Int

    /// Creates settings; every parameter has the documented default.
    public init(
        failureRatio: Double = 0.5,
        minimumCalls: Int = 20,
        window: Duration = .seconds(10),
        openDuration: Duration = .seconds(5),
        halfOpenProbes: Int = 1
    ) {
        self.failureRatio = failureRatio
        self.minimumCalls = minimumCalls
        self.window = window
        self.openDuration = openDuration
        self.halfOpenProbes = halfOpenProbes
    }
}
