/// What `/metrics` shows of one module's resilience stack, read when the metrics are rendered.
public struct ResilienceGauges: Sendable {
    /// Each host's circuit breaker state: `closed`, `half-open` or `open`.
    public var breakers: [(host: String, state: String)]
    /// The module's calls in flight (its bulkhead's count).
    public var inFlight: Int

    /// Creates the readings.
    public init(breakers: [(host: String, state: String)], inFlight: Int) {
        self.breakers = breakers
        self.inFlight = inFlight
    }

    /// A breaker state as a gauge value: 0 closed, 1 half-open, 2 open.
    public static func value(ofBreakerState state: String) -> Int {
        switch state {
        case "open": 2
        case "half-open": 1
        default: 0
        }
    }
}
