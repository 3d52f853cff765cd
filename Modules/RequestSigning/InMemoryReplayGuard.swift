public import Foundation
import Synchronization

/// A bounded in-process ``ReplayGuard``: nonces are kept until their signature expires, and at
/// most ``capacity`` at once.
///
/// Expired nonces are dropped as new ones arrive (oldest first). When the guard holds
/// ``capacity`` unexpired nonces it refuses new ones with ``ReplayCheckResult/capacityExceeded``
/// rather than forgetting a live nonce, which would let that request be replayed: a full guard
/// fails closed. Only signatures that passed every other check reach the guard, so only a key
/// holder can fill it; size it above the expected request rate times the replay window (for
/// example 1 000 requests/s for a 300 s window needs 300 000).
public final class InMemoryReplayGuard: ReplayGuard {
    /// The most nonces held at once.
    public let capacity: Int

    /// A nonce of one key: the key id, a NUL and the nonce, packed into 47 bytes inline (no heap
    /// strings to chase when hashing and comparing), or kept as strings when longer.
    private enum Key: Hashable {
        case packed(UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        case long(String, String)

        init(keyID: String, nonce: String) {
            let length = keyID.utf8.count + 1 + nonce.utf8.count
            guard length <= 47 else {
                self = .long(keyID, nonce)
                return
            }
            var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &words) { buffer in
                buffer[0] = UInt8(length)
                ByteText.withBytes(keyID) { key in
                    ByteText.withBytes(nonce) { nonce in
                        // Offset 1 + key.count stays 0: the NUL separator.
                        if let source = key.baseAddress, key.count > 0 {
                            buffer.baseAddress!.advanced(by: 1).copyMemory(from: source, byteCount: key.count)
                        }
                        if let source = nonce.baseAddress, nonce.count > 0 {
                            buffer.baseAddress!.advanced(by: 2 + key.count).copyMemory(
                                from: source, byteCount: nonce.count)
                        }
                    }
                }
            }
            self = .packed(words.0, words.1, words.2, words.3, words.4, words.5)
        }
    }

    private struct State {
        /// Each nonce's expiry, in seconds since 1970.
        var expiries: [Key: Double] = [:]
        /// Insertion order, for dropping expired entries oldest first (keys and their expiries
        /// apart, so that checking the oldest expiry touches no key); `head` is the first live slot.
        var orderKeys: [Key] = []
        var orderExpiries: [Double] = []
        var head = 0
        /// When the whole table was last swept for expired entries.
        var lastSweep = -Double.infinity
    }

    private let state: Mutex<State>

    /// Creates a guard.
    /// - Parameter capacity: The most nonces held at once (at least 1).
    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
        var initial = State()
        initial.expiries.reserveCapacity(min(self.capacity, 16_384))
        initial.orderKeys.reserveCapacity(min(self.capacity, 16_384))
        initial.orderExpiries.reserveCapacity(min(self.capacity, 16_384))
        state = Mutex(initial)
    }

    /// The number of nonces held.
    public var count: Int { state.withLock { $0.expiries.count } }

    /// Records a nonce unless it is held and unexpired; see ``ReplayGuard``.
    nonisolated(nonsending)
        public func checkAndRemember(nonce: String, keyID: String, expiresAt: Date, now: Date) async
        -> ReplayCheckResult
    {
        record(
            key: Key(keyID: keyID, nonce: nonce), expiresAt: expiresAt.timeIntervalSince1970,
            now: now.timeIntervalSince1970)
    }

    private func record(key: Key, expiresAt: Double, now: Double) -> ReplayCheckResult {
        let capacity = self.capacity
        return state.withLock { state in
            Self.dropExpiredHead(&state, now: now)
            if state.expiries.count >= capacity {
                if let held = state.expiries[key], held > now { return .replayed }
                guard now > state.lastSweep else { return .capacityExceeded }
                Self.sweep(&state, now: now)
                if state.expiries.count >= capacity { return .capacityExceeded }
            }
            if let previous = state.expiries.updateValue(expiresAt, forKey: key), previous > now {
                state.expiries[key] = previous
                return .replayed
            }
            state.orderKeys.append(key)
            state.orderExpiries.append(expiresAt)
            return .fresh
        }
    }

    private static func dropExpiredHead(_ state: inout State, now: Double) {
        while state.head < state.orderExpiries.count, state.orderExpiries[state.head] <= now {
            let key = state.orderKeys[state.head]
            if state.expiries[key] == state.orderExpiries[state.head] { state.expiries[key] = nil }
            state.head += 1
        }
        if state.head > 1024 && state.head * 2 > state.orderExpiries.count {
            state.orderKeys.removeFirst(state.head)
            state.orderExpiries.removeFirst(state.head)
            state.head = 0
        }
    }

    private static func sweep(_ state: inout State, now: Double) {
        state.lastSweep = now
        let live = state.expiries.filter { $0.value > now }
        var keys: [Key] = []
        var expiries: [Double] = []
        for index in state.head..<state.orderKeys.count where live[state.orderKeys[index]] == state.orderExpiries[index]
        {
            keys.append(state.orderKeys[index])
            expiries.append(state.orderExpiries[index])
        }
        state.expiries = live
        state.orderKeys = keys
        state.orderExpiries = expiries
        state.head = 0
    }
}
