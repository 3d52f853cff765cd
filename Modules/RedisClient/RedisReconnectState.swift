import Synchronization

/// The reconnect backoff of one ``RedisClient``, shared by the pools of all its loops.
///
/// Whether Redis can be reached is a fact about the endpoint, not about a loop: a failed
/// connection attempt on any loop starts the backoff for every loop, and a connection that opens
/// on any loop ends it for every loop. So once Redis is back, no loop keeps failing calls at once
/// until a backoff of its own runs out. Touched only when a pool opens a connection or one fails
/// to open, never for a call that finds an open connection.
final class RedisReconnectState: Sendable {
    private struct State {
        /// Failed connection attempts in a row, on any loop.
        var failures = 0
        /// When the next attempt may start.
        var retryAt: ContinuousClock.Instant?
        var lastFailure: RedisError?
    }

    private let backoff: RedisConfiguration.Backoff
    private let state = Mutex(State())

    init(backoff: RedisConfiguration.Backoff) {
        self.backoff = backoff
    }

    /// The last failure and the time until the next attempt, while the backoff runs; `nil` when
    /// a connection may be attempted.
    func waiting(at now: ContinuousClock.Instant) -> (failure: RedisError, wait: Duration)? {
        state.withLock { state in
            guard let retryAt = state.retryAt, now < retryAt, let failure = state.lastFailure else { return nil }
            return (failure, now.duration(to: retryAt))
        }
    }

    /// A connection attempt failed: the backoff grows.
    func failed(_ error: RedisError, at now: ContinuousClock.Instant) {
        state.withLock { state in
            state.failures += 1
            state.retryAt = now + backoff.delay(afterFailures: state.failures)
            state.lastFailure = error
        }
    }

    /// A connection opened: the backoff ends.
    func succeeded() {
        state.withLock { state in
            // Failures and the next attempt are set together, so no failures means no backoff.
            guard state.failures > 0 else { return }
            state = State()
        }
    }
}
