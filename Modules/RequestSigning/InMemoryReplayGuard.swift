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

    private struct State {
        /// `keyID NUL nonce` to its expiry, in seconds since 1970.
        var expiries: [String: Double] = [:]
        /// Insertion order, for dropping expired entries oldest first; `head` is the first live slot.
        var order: [(key: String, expiresAt: Double)] = []
        var head = 0
        /// When the whole table was last swept for expired entries.
        var lastSweep = -Double.infinity
    }

    private let state = Mutex(State())

    /// Creates a guard.
    /// - Parameter capacity: The most nonces held at once (at least 1).
    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// The number of nonces held.
    public var count: Int { state.withLock { $0.expiries.count } }

    /// Records a nonce unless it is held and unexpired; see ``ReplayGuard``.
    public func checkAndRemember(nonce: String, keyID: String, expiresAt: Date, now: Date) async -> ReplayCheckResult {
        record(key: keyID + "\u{0}" + nonce, expiresAt: expiresAt.timeIntervalSince1970, now: now.timeIntervalSince1970)
    }

    private func record(key: String, expiresAt: Double, now: Double) -> ReplayCheckResult {
        let capacity = self.capacity
        return state.withLock { state in
            Self.dropExpiredHead(&state, now: now)
            if let held = state.expiries[key], held > now { return .replayed }
            if state.expiries.count >= capacity && state.expiries[key] == nil {
                guard now > state.lastSweep else { return .capacityExceeded }
                Self.sweep(&state, now: now)
                if state.expiries.count >= capacity { return .capacityExceeded }
            }
            state.expiries[key] = expiresAt
            state.order.append((key, expiresAt))
            return .fresh
        }
    }

    private static func dropExpiredHead(_ state: inout State, now: Double) {
        while state.head < state.order.count, state.order[state.head].expiresAt <= now {
            let entry = state.order[state.head]
            if state.expiries[entry.key] == entry.expiresAt { state.expiries[entry.key] = nil }
            state.head += 1
        }
        if state.head > 1024 && state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }

    private static func sweep(_ state: inout State, now: Double) {
        state.lastSweep = now
        let live = state.expiries.filter { $0.value > now }
        state.expiries = live
        state.order = state.order[state.head...].filter { live[$0.key] == $0.expiresAt }
        state.head = 0
    }
}
