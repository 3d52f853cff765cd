import EventLoops

/// The deadlines of one loop client's requests, so that one loop timer serves them all.
///
/// Requests are kept in one first-in, first-out line per timeout. A request's deadline is the
/// moment it was sent plus its timeout, and every request of a client is sent on the same
/// thread, so in one line a later request never falls due earlier. Adding a request and
/// dropping finished ones from the fronts cost O(1) (amortized); the client's timer only needs
/// the earliest front. A line is kept once made (a client sees a handful of timeouts).
struct HTTP1Deadlines {
    private struct Line {
        var items = FIFOQueue<HTTP1Exchange>()

        var front: HTTP1Exchange? { items.first }

        mutating func popFront() {
            _ = items.popFirst()
        }

        mutating func dropFinished() {
            while let front, front.isFinished { popFront() }
        }

        mutating func takeDue(now: ContinuousClock.Instant, into due: inout [HTTP1Exchange]) {
            while let front, front.isFinished || front.deadline <= now {
                if !front.isFinished { due.append(front) }
                popFront()
            }
        }
    }

    private var lines: [Duration: Line] = [:]

    /// Adds a request that is in flight.
    mutating func add(_ exchange: HTTP1Exchange) {
        lines[exchange.timeout, default: Line()].items.append(exchange)
    }

    /// Drops the finished requests at the front of `timeout`'s line (after one has finished).
    mutating func trim(_ timeout: Duration) {
        lines[timeout]?.dropFinished()
    }

    /// Removes and returns the requests still in flight whose deadline is `now` or earlier, and
    /// drops the finished ones before them.
    mutating func takeDue(now: ContinuousClock.Instant) -> [HTTP1Exchange] {
        var due: [HTTP1Exchange] = []
        for index in lines.values.indices { lines.values[index].takeDue(now: now, into: &due) }
        return due
    }

    /// The earliest deadline of a request still in flight, after dropping finished ones at the fronts.
    mutating func earliest() -> ContinuousClock.Instant? {
        var earliest: ContinuousClock.Instant?
        for index in lines.values.indices {
            lines.values[index].dropFinished()
            if let front = lines.values[index].front, earliest.map({ front.deadline < $0 }) ?? true {
                earliest = front.deadline
            }
        }
        return earliest
    }

    /// Forgets every request.
    mutating func removeAll() { lines = [:] }
}
