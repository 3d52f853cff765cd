import ServiceCore
import Synchronization

/// A ``RateLimitStore`` in this process's memory: the generic cell rate algorithm (GCRA), one
/// "theoretical arrival time" per key, in shards each behind its own lock. It is the reference
/// ``RedisRateLimitStore`` is tested against; the step is written out there.
///
/// Memory is bounded: a key whose allowance is whole again holds no information, and a new key
/// arriving at a full shard takes the place of the one whose allowance came back first, found in
/// logarithmic time (``ExpiringTable``); a shard full of keys still spending their allowance
/// admits new keys without recording them (counted in ``untrackedAdmissions``) rather than
/// refuse clients it cannot tell apart.
final class InMemoryRateLimitStore: RateLimitStore {
    /// One shard's table: key to theoretical arrival time, in nanoseconds of the clock, which is
    /// also when the key's allowance is whole again.
    private final class Shard: Sendable {
        let table: Mutex<ExpiringTable<Void, Int64>>

        init(capacity: Int) {
            table = Mutex(ExpiringTable(capacity: capacity))
        }
    }

    private let clock: any ResilienceClock
    private let shards: [Shard]
    private let untracked = Atomic<Int>(0)

    /// Creates a store.
    /// - Parameters:
    ///   - clock: The time source (a virtual clock in tests).
    ///   - capacity: The most keys held at once, across all shards.
    init(clock: any ResilienceClock = MonotonicClock(), capacity: Int = 100_000) {
        self.clock = clock
        self.shards = (0..<16).map { _ in Shard(capacity: max(1, capacity / 16)) }
    }

    /// New keys admitted unrecorded because their shard was full.
    var untrackedAdmissions: Int { untracked.load(ordering: .relaxed) }

    /// The keys held now.
    var count: Int { shards.reduce(0) { $0 + $1.table.withLock { $0.count } } }

    func acquire(_ key: String, policy: RateLimitPolicy) async throws -> RateLimitDecision {
        let now = clock.now.nanoseconds
        let interval = policy.emissionInterval
        let tolerance = policy.window.nanoseconds
        let shard = shards[Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))]
        return shard.table.withLock { table -> RateLimitDecision in
            let known = table.entry(for: key)?.expiry
            let arrival = max(known ?? now, now)
            let next = arrival + interval
            guard next - now <= tolerance else {
                return RateLimitDecision(
                    allowed: false,
                    remaining: 0,
                    resetAfter: .nanoseconds(arrival - now),
                    retryAfter: .nanoseconds(next - now - tolerance)
                )
            }
            if known == nil, table.isFull {
                if !table.removeSoonestToExpire(notAfter: now) {
                    untracked.add(1, ordering: .relaxed)
                    return RateLimitDecision(
                        allowed: true, remaining: policy.quota - 1, resetAfter: .nanoseconds(interval), retryAfter: nil)
                }
            }
            table.set(key, value: (), expiry: next)
            return RateLimitDecision(
                allowed: true,
                remaining: Int((tolerance - (next - now)) / interval),
                resetAfter: .nanoseconds(next - now),
                retryAfter: nil
            )
        }
    }
}
