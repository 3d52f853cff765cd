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
/// signatures that passed every other check reach the guard, so only a key holder can fill it;
/// size it above the expected request rate times the replay window (for example 1 000
/// requests/s for a 300 s window needs 300 000). Memory grows with the nonces actually held, up
/// to twice the capacity rounded up to a power of two of 6-byte slots plus two logs of three
/// quarters as many 56-byte entries (about 24 MB for the default capacity when full).
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

    /// The number of unexpired nonces held, as of the latest time the guard was given.
    public var count: Int { table.withLock { $0.liveCount } }

    /// The number of slots of the table, for tests.
    package var slotCount: Int { table.withLock { $0.slotCount } }

    /// Records a nonce unless it is held and unexpired; see ``ReplayGuard``.
    nonisolated(nonsending)
        public func checkAndRemember(nonce: String, keyID: String, expiresAt: Date, now: Date) async
        -> ReplayCheckResult
    {
        record(nonce: nonce, keyID: keyID, expiresAt: expiresAt, now: now)
    }

    /// ``checkAndRemember(nonce:keyID:expiresAt:now:)`` without suspending, for the verifier.
    package func record(nonce: String, keyID: String, expiresAt: Date, now: Date) -> ReplayCheckResult {
        let expiry = expiresAt.timeIntervalSince1970
        let instant = now.timeIntervalSince1970
        let packed = ByteText.withBytes(keyID) { key in
            ByteText.withBytes(nonce) { nonce in ReplayTable.Key(keyID: key, nonce: nonce) }
        }
        if let packed {
            return table.withLock { $0.record(packed, expiresAt: expiry, now: instant) }
        }
        let key = ReplayTable.LongKey(keyID: keyID, nonce: nonce)
        return table.withLock { $0.record(key, expiresAt: expiry, now: instant) }
    }

    /// Records a packed key id and nonce (the verifier packs them from the field's bytes).
    func record(_ key: ReplayTable.Key, expiresAt: Double, now: Double) -> ReplayCheckResult {
        table.withLock { $0.record(key, expiresAt: expiresAt, now: now) }
    }
}
