import AppLogging
import RedisClient
import Synchronization

/// Whether one shared-state store (the rate limits or the token cache) answers: counts its failed
/// calls for `/metrics` and logs one warning when an outage begins and one notice when it ends,
/// not one line per request.
final class SharedStateHealth: Sendable {
    /// The store's name in `/metrics` and the log: `rate_limits` or `token_cache`.
    let store: String
    private let logger: Logger?
    private let errors = Atomic<Int>(0)
    private let down = Atomic<Bool>(false)

    /// Creates a tracker for `store`; with no logger, outages are only counted.
    init(store: String, logger: Logger? = nil) {
        self.store = store
        self.logger = logger
    }

    /// Failed calls so far.
    var errorCount: Int { errors.load(ordering: .relaxed) }

    /// Whether the last call answered (true until a call fails).
    var isAvailable: Bool { !down.load(ordering: .relaxed) }

    /// Counts a failed call; the first of an outage is logged. A cancelled call says nothing
    /// about the store (the request went away) and is not counted.
    func recordFailure(_ error: any Error) {
        if error is CancellationError { return }
        if let redis = error as? RedisError, redis.code == .cancelled { return }
        errors.add(1, ordering: .relaxed)
        guard !down.exchange(true, ordering: .acquiringAndReleasing) else { return }
        logger?.warning(
            "shared state unavailable; requests go on without it",
            metadata: ["store": .string(store), "error": .string(String(describing: error))])
    }

    /// Notes a call that answered; the first after an outage is logged.
    func recordSuccess() {
        guard down.load(ordering: .relaxed), down.exchange(false, ordering: .acquiringAndReleasing) else { return }
        logger?.notice("shared state available again", metadata: ["store": .string(store)])
    }
}
