/// A table of values by string key, each with an expiry, that names the entry closest to expiry
/// in logarithmic time: the storage of the in-memory token cache and rate-limit store, which
/// must make room when full without a pass over every entry, whatever keys clients send.
///
/// Beside the entries it keeps a min-heap of expiry records. A replaced or removed entry leaves
/// its old record behind; each record carries the stamp of the write that made it, and one whose
/// stamp is no longer its key's is skipped when it comes up. The heap is rebuilt from the entries
/// once it holds more than twice the capacity plus 16 records, so it stays bounded, and each
/// rebuild, linear in the entries, follows at least as many writes.
struct ExpiringTable<Value, Expiry: Comparable> {
    private struct Slot {
        var value: Value
        var expiry: Expiry
        var stamp: UInt64
    }

    private struct Record {
        var expiry: Expiry
        var stamp: UInt64
        var key: String
    }

    /// The most entries the table is meant to hold; ``isFull`` tells when it holds that many.
    let capacity: Int
    private var slots: [String: Slot] = [:]
    private var heap: [Record] = []
    private var nextStamp: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The entries held, expired ones included until they are removed.
    var count: Int { slots.count }

    /// Whether the table holds ``capacity`` entries or more.
    var isFull: Bool { slots.count >= capacity }

    /// The heap records held, stale ones included: at most twice the capacity plus 16.
    var recordCount: Int { heap.count }

    /// The value and expiry held for `key`, expired or not.
    func entry(for key: String) -> (value: Value, expiry: Expiry)? {
        slots[key].map { ($0.value, $0.expiry) }
    }

    /// Sets the value and expiry for `key` (the caller makes room first when it must).
    mutating func set(_ key: String, value: Value, expiry: Expiry) {
        nextStamp &+= 1
        slots[key] = Slot(value: value, expiry: expiry, stamp: nextStamp)
        push(Record(expiry: expiry, stamp: nextStamp, key: key))
        if heap.count > 2 * capacity + 16 { rebuildHeap() }
    }

    /// Removes the entry for `key`, if any.
    mutating func remove(_ key: String) {
        slots[key] = nil
    }

    /// Removes the entry with the earliest expiry, when it expires no later than `limit` (any
    /// entry when `limit` is `nil`); returns whether one was removed.
    @discardableResult
    mutating func removeSoonestToExpire(notAfter limit: Expiry? = nil) -> Bool {
        // Bounded: each pass takes a record off the heap, which holds a record of every entry.
        while let first = heap.first {
            guard slots[first.key]?.stamp == first.stamp else {
                _ = popFirst()
                continue
            }
            if let limit, first.expiry > limit { return false }
            _ = popFirst()
            slots[first.key] = nil
            return true
        }
        return false
    }

    /// The heap again, from the current entries only.
    private mutating func rebuildHeap() {
        heap = slots.map { Record(expiry: $0.value.expiry, stamp: $0.value.stamp, key: $0.key) }
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    private mutating func push(_ record: Record) {
        heap.append(record)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].expiry < heap[parent].expiry else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popFirst() -> Record? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        siftDown(from: 0)
        return first
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let earlier = right < heap.count && heap[right].expiry < heap[left].expiry ? right : left
            guard heap[earlier].expiry < heap[parent].expiry else { return }
            heap.swapAt(parent, earlier)
            parent = earlier
        }
    }
}
