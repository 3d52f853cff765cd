public import AppLogging
import Synchronization

/// Stops calling a host that is failing: one per host of a module's domain.
///
/// ```
///            failures ≥ ratio of ≥ minimumCalls in window
///   CLOSED ─────────────────────────────────────────────▶ OPEN ◀─┐
///     ▲                                                    │    │ probe fails
///     │ probe succeeds                       openDuration  │    │
///     │                                         passes     ▼    │
///     └──────────────────────────────────────────────── HALF-OPEN
/// ```
///
/// Closed, every call goes through and its outcome counts in a sliding window. Open, calls fail
/// fast. Half-open, up to ``CircuitBreakerSettings/halfOpenProbes`` calls go through; the first
/// outcome closes or reopens it. Each transition writes one log line.
public final class CircuitBreaker: Sendable {
    /// The breaker's state.
    public enum State: String, Sendable, Equatable {
        /// Calls go through.
        case closed
        /// Calls fail fast.
        case open
        /// A few probe calls go through.
        case halfOpen = "half-open"
    }

    /// What ``acquire()`` decided.
    public enum Permission: Sendable, Equatable {
        /// Send the call; `probe` when the breaker is half-open.
        case allowed(probe: Bool)
        /// Do not send it; trying again makes sense after `retryAfter`.
        case rejected(retryAfter: Duration)
    }

    private struct Status: Sendable {
        var state: State = .closed
        var openedAt: Duration = .zero
        var probes = 0
        /// Successes (`first`) and failures (`second`).
        var window: SlidingWindow
    }

    /// The module, for logs.
    public let module: String
    /// The host, for logs and metrics.
    public let host: String
    /// The thresholds.
    public let settings: CircuitBreakerSettings
    private let clock: any ResilienceClock
    private let logger: Logger
    private let status: Mutex<Status>

    /// Creates a closed breaker.
    public init(
        module: String,
        host: String,
        settings: CircuitBreakerSettings = .init(),
        clock: any ResilienceClock = MonotonicClock(),
        logger: Logger
    ) {
        self.module = module
        self.host = host
        self.settings = settings
        self.clock = clock
        self.logger = logger
        self.status = Mutex(Status(window: SlidingWindow(window: settings.window)))
    }

    /// The state now (an open breaker whose time has passed reads as half-open).
    public var state: State {
        let now = clock.now
        return status.withLock { status in
            status.state == .open && now - status.openedAt >= settings.openDuration ? .halfOpen : status.state
        }
    }

    /// Asks to send a call. An allowed call must be followed by ``record(success:probe:)`` or
    /// ``release(probe:)``.
    public func acquire() -> Permission {
        let now = clock.now
        let (permission, transition) = status.withLock { status -> (Permission, (State, State)?) in
            switch status.state {
            case .closed:
                return (.allowed(probe: false), nil)
            case .open:
                let waited = now - status.openedAt
                guard waited >= settings.openDuration else {
                    return (.rejected(retryAfter: settings.openDuration - waited), nil)
                }
                status.state = .halfOpen
                status.probes = 1
                return (.allowed(probe: true), (.open, .halfOpen))
            case .halfOpen:
                guard status.probes < settings.halfOpenProbes else {
                    return (.rejected(retryAfter: .seconds(1)), nil)
                }
                status.probes += 1
                return (.allowed(probe: true), nil)
            }
        }
        if let transition { log(transition) }
        return permission
    }

    /// Records the outcome of an allowed call.
    public func record(success: Bool, probe: Bool) {
        let now = clock.now
        let transition = status.withLock { status -> (State, State)? in
            if probe, status.state == .halfOpen {
                status.probes = max(0, status.probes - 1)
                if success {
                    status.state = .closed
                    status.window.reset()
                    return (.halfOpen, .closed)
                }
                status.state = .open
                status.openedAt = now
                return (.halfOpen, .open)
            }
            guard status.state == .closed else { return nil }
            status.window.add(first: success ? 1 : 0, second: success ? 0 : 1, at: now)
            let totals = status.window.totals(at: now)
            let calls = totals.first + totals.second
            guard !success, calls >= settings.minimumCalls,
                Double(totals.second) >= settings.failureRatio * Double(calls)
            else { return nil }
            status.state = .open
            status.openedAt = now
            return (.closed, .open)
        }
        if let transition { log(transition) }
    }

    /// Gives back an allowed call's slot without an outcome (it was cancelled).
    public func release(probe: Bool) {
        guard probe else { return }
        status.withLock { $0.probes = max(0, $0.probes - 1) }
    }

    private func log(_ transition: (from: State, to: State)) {
        logger.notice(
            "circuit breaker \(transition.from.rawValue) -> \(transition.to.rawValue)",
            metadata: [
                "module": .string(module), "host": .string(host),
                "from": .string(transition.from.rawValue), "to": .string(transition.to.rawValue),
            ]
        )
    }
}
