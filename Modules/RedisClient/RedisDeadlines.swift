/// The calls of a ``RedisLoopPool`` that have not finished, by deadline, so that one loop timer
/// (for the earliest) serves them all: the loop's timers are a list it scans, which a timer per
/// call in flight would make cost more than the call itself.
///
/// A doubly linked list through the calls: calls with the same timeout come in deadline order,
/// so adding is appending at the tail in the common case, and removing is O(1). Touched only on
/// the pool's loop thread.
struct RedisDeadlines {
    /// The call with the earliest deadline, and the one with the latest.
    private(set) var earliest: RedisRequest?
    private var latest: RedisRequest?

    /// Adds a call, after every call whose deadline is not later than its own.
    mutating func insert(_ request: RedisRequest) {
        request.listed = true
        var before = latest
        while let candidate = before, candidate.deadline > request.deadline { before = candidate.earlier }
        request.earlier = before
        if let before {
            request.later = before.later
            before.later = request
        } else {
            request.later = earliest
            earliest = request
        }
        if let later = request.later { later.earlier = request } else { latest = request }
    }

    /// Removes a call (nothing happens when it is not listed).
    mutating func remove(_ request: RedisRequest) {
        guard request.listed else { return }
        request.listed = false
        let earlier = request.earlier
        let later = request.later
        if let earlier { earlier.later = later } else { earliest = later }
        if let later { later.earlier = earlier } else { latest = earlier }
        request.earlier = nil
        request.later = nil
    }
}
