import Synchronization

/// Caps the retries of one module: at most ``ratio`` of its recent first attempts, plus
/// ``floorPerSecond`` per second of the window, so a failing domain sees no retry storm.
///
/// Shared by every call of the module (one instance per module, made by ``ResilienceStack``).
/// With every answer failing, N first attempts in a window lead to at most
/// `ratio × N + floorPerSecond × window` retries in it.
public final class RetryBudget: Sendable {
    /// The share of first attempts that may be retried.
    public let ratio: Double
    /// The retries allowed per second whatever the traffic, so a quiet module can still retry.
    public let floorPerSecond: Double
    /// How far back first attempts and retries count.
    public let window: Duration

    private let clock: any ResilienceClock
    /// First attempts (`first`) and retries (`second`).
    private let counts: Mutex<SlidingWindow>

    /// Creates a budget.
    /// - Parameters:
    ///   - ratio: The share of first attempts that may be retried (0.2: one retry per five calls).
    ///   - floorPerSecond: Retries allowed per second regardless of traffic.
    ///   - window: How far back attempts count.
    ///   - clock: The time source.
    public init(ratio: Double, floorPerSecond: Double, window: Duration, clock: any ResilienceClock) {
        self.ratio = max(0, ratio)
        self.floorPerSecond = max(0, floorPerSecond)
        self.window = window
        self.clock = clock
        self.counts = Mutex(SlidingWindow(window: window))
    }

    /// Notes a first attempt.
    public func recordFirstAttempt() {
        let now = clock.now
        counts.withLock { $0.add(first: 1, at: now) }
    }

    /// Takes one retry from the budget; `false` when none is left (the call must not retry).
    public func tryRetry() -> Bool {
        let now = clock.now
        let seconds = Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18
        return counts.withLock { counts in
            let totals = counts.totals(at: now)
            let allowed = ratio * Double(totals.first) + floorPerSecond * seconds
            guard Double(totals.second) + 1 <= allowed else { return false }
            counts.add(second: 1, at: now)
            return true
        }
    }
}
