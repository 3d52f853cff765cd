/// Two counts over the last `window` of time, kept in buckets of `window / buckets`: the
/// first attempts and retries of a ``RetryBudget``, the successes and failures of a
/// ``CircuitBreaker``. Not thread-safe: its owner keeps it behind a lock.
struct SlidingWindow: Sendable {
    private struct Bucket: Sendable {
        var index: Int64
        var first: Int
        var second: Int
    }

    private let width: Duration
    private var slots: [Bucket]

    /// A window of `window`, in `buckets` buckets.
    init(window: Duration, buckets: Int = 10) {
        let count = max(1, buckets)
        width = max(window / count, .nanoseconds(1))
        slots = Array(repeating: Bucket(index: -1, first: 0, second: 0), count: count)
    }

    /// Adds to the counts at time `now`.
    mutating func add(first: Int = 0, second: Int = 0, at now: Duration) {
        let index = bucketIndex(now)
        let slot = Int(index % Int64(slots.count))
        if slots[slot].index != index {
            slots[slot] = Bucket(index: index, first: 0, second: 0)
        }
        slots[slot].first += first
        slots[slot].second += second
    }

    /// The counts of the buckets that are not older than the window at time `now`.
    func totals(at now: Duration) -> (first: Int, second: Int) {
        let current = bucketIndex(now)
        var first = 0
        var second = 0
        for bucket in slots where bucket.index >= 0 && current - bucket.index < Int64(slots.count) {
            first += bucket.first
            second += bucket.second
        }
        return (first, second)
    }

    /// The number of the bucket holding time `now`.
    private func bucketIndex(_ now: Duration) -> Int64 {
        Int64(max(0, (now / width).rounded(.down)))
    }

    /// Forgets every count.
    mutating func reset() {
        for index in slots.indices { slots[index] = Bucket(index: -1, first: 0, second: 0) }
    }
}
