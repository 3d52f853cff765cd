public import Foundation
import Synchronization

/// A bounded in-process ``ReplayGuard``: nonces are kept until their signature expires, and at
/// most ``capacity`` at once.
///
/// Nonces live in a fixed-size-entry hash table (no allocation per nonce; key id and nonce are
/// stored in full and compared exactly, so a hash collision never lets a replay through). Expired
/// nonces are dropped by sweeps as new ones arrive. When the guard holds ``capacity`` unexpired
/// nonces it refuses new ones with ``ReplayCheckResult/capacityExceeded`` rather than forgetting a
/// live nonce, which would let that request be replayed: a full guard fails closed. Only
/// signatures that passed every other check reach the guard, so only a key holder can fill it.
///
/// Size it from the request rate and the verifier's window with
/// ``init(expectedRequestsPerSecond:window:headroom:)`` (the window is
/// ``SignatureVerifier/Configuration/replayWindow``). The capacity is a bound, not an
/// allocation: the table starts small and doubles with the nonces actually held, up to
/// ``maximumMemory`` bytes (about 240 bytes per nonce of capacity; 24 MB for 100 000). ``count``
/// and ``capacity`` give its fill, for metrics.
public final class InMemoryReplayGuard: ReplayGuard {
    /// The most nonces held at once.
    public let capacity: Int

    private let table: Mutex<ReplayTable>

    /// Creates a guard.
    /// - Parameter capacity: The most nonces held at once (at least 1, at most 2^30).
    public init(capacity: Int = 100_000) {
        self.capacity = min(max(1, capacity), 1 << 30)
        table = Mutex(ReplayTable(capacity: self.capacity))
    }

    /// Creates a guard sized for a request rate: see ``capacity(forRequestsPerSecond:window:headroom:)``.
    /// - Parameters:
    ///   - expectedRequestsPerSecond: The most signed requests per second this guard sees when
    ///     the load is high (the whole process's, when its upstreams share the guard).
    ///   - window: How long a nonce is remembered: the verifier's
    ///     ``SignatureVerifier/Configuration/replayWindow``.
    ///   - headroom: The factor over rate × window, for bursts; 2 by default.
    public convenience init(expectedRequestsPerSecond: Double, window: Duration, headroom: Double = 2) {
        self.init(
            capacity: Self.capacity(forRequestsPerSecond: expectedRequestsPerSecond, window: window, headroom: headroom)
        )
    }

    /// The capacity for a request rate: rate × window × headroom, rounded up, at least 1 000 and
    /// at most 2^30. For example 1 000 requests/s with the default window of 331 s and headroom
    /// 2 gives 662 000 (at most about 190 MB, taken only as the nonces arrive).
    /// - Parameters:
    ///   - requestsPerSecond: The most signed requests per second the guard sees.
    ///   - window: How long a nonce is remembered (``SignatureVerifier/Configuration/replayWindow``).
    ///   - headroom: The factor over rate × window, at least 1.
    public static func capacity(forRequestsPerSecond requestsPerSecond: Double, window: Duration, headroom: Double = 2)
        -> Int
    {
        let seconds = Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18
        let wanted = max(0, requestsPerSecond) * max(0, seconds) * max(1, headroom)
        guard wanted.isFinite, wanted < Double(1 << 30) else { return 1 << 30 }
        return max(1_000, Int(wanted.rounded(.up)))
    }

    /// The most bytes a guard of `capacity` takes when full: its largest table (a power of two of
    /// at least twice the capacity, 6 bytes of index per slot) and two logs of three quarters as
    /// many 56-byte entries. Key id and nonce pairs longer than 47 bytes are kept as strings
    /// besides, and cost more.
    public static func maximumMemory(forCapacity capacity: Int) -> Int {
        ReplayTable.maximumMemory(forCapacity: min(max(1, capacity), 1 << 30))
    }

    /// The most bytes this guard takes when full; see ``maximumMemory(forCapacity:)``.
    public var maximumMemory: Int { Self.maximumMemory(forCapacity: capacity) }

    /// The number of unexpired nonces held, as of the latest time the guard was given (a scan of
    /// the table, for metrics rather than per request).
    public var count: Int { table.withLock { $0.liveCount } }

    /// The number of slots of the table, for tests.
    package var slotCount: Int { table.withLock { $0.slotCount } }

    /// Records a nonce unless it is held and unexpired; see ``ReplayGuard``. It never suspends.
    nonisolated(nonsending)
        public func checkAndRemember(_ nonce: ReplayNonce, expiresAt: Date, now: Date) async -> ReplayCheckResult
    {
        let expiry = expiresAt.timeIntervalSince1970
        let instant = now.timeIntervalSince1970
        switch nonce.storage {
        case .packed(let key):
            return table.withLock { $0.record(key, expiresAt: expiry, now: instant) }
        case .text(let keyID, let nonce):
            let key = ReplayTable.LongKey(keyID: keyID, nonce: nonce)
            return table.withLock { $0.record(key, expiresAt: expiry, now: instant) }
        }
    }
}
