import Synchronization

/// What a transport keeps on one ``IOEventLoop``: its connections and requests there, touched
/// only on that loop's thread.
package protocol IOEventLoopMember: AnyObject, Sendable {
    /// The loop it lives on.
    var loop: any IOEventLoop { get }

    /// Stops taking requests (on the loop's thread): requests in flight may finish until
    /// `deadline`; `waiter`, if any, is resumed once everything is closed.
    func shutdown(deadline: ContinuousClock.Instant, waiter: CheckedContinuation<Void, Never>?)
}

/// A transport's members, one per event loop that has sent through it, created on first use and
/// stopped together.
package final class IOEventLoopMembers<Member: IOEventLoopMember>: Sendable {
    private struct State {
        var members: [ObjectIdentifier: Member] = [:]
        var closed = false
    }

    private let state = Mutex(State())
    private let make: @Sendable (any IOEventLoop, _ onClose: @escaping @Sendable () -> Void) -> Member?

    /// - Parameter make: Creates the member of a loop, on that loop's thread; `onClose` is what
    ///   the member calls, on its loop, once it has closed (the registry then forgets it). `nil`
    ///   when none can be made.
    package init(make: @escaping @Sendable (any IOEventLoop, _ onClose: @escaping @Sendable () -> Void) -> Member?) {
        self.make = make
    }

    /// The member of `loop`, created on first use; call it on `loop`'s thread. `nil` after
    /// ``shutdown(gracePeriod:)`` or when `make` gave none.
    package func member(for loop: any IOEventLoop) -> Member? {
        let key = ObjectIdentifier(loop)
        let (existing, closed) = state.withLock { ($0.members[key], $0.closed) }
        if let existing { return existing }
        guard !closed else { return nil }
        // Created on the loop's thread, outside the lock (only this thread creates this key).
        guard
            let member = make(
                loop,
                { [weak self] in
                    _ = self?.state.withLock { $0.members.removeValue(forKey: key) }
                })
        else { return nil }
        let added = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.members[key] = member
            return true
        }
        if !added { member.shutdown(deadline: .now, waiter: nil) }
        return added ? member : nil
    }

    /// How many members are open.
    package var count: Int { state.withLock { $0.members.count } }

    /// Whether ``shutdown(gracePeriod:)`` has begun.
    package var isShutDown: Bool { state.withLock { $0.closed } }

    /// Stops every member: requests in flight may run until the grace period ends; returns once
    /// each has closed (or its loop has stopped, which closes it too).
    package func shutdown(gracePeriod: Duration) async {
        let members = closeAll()
        let deadline = ContinuousClock.now + gracePeriod
        for member in members {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Resumed exactly once: by the member on its loop, or here when the loop has stopped.
                let scheduled = member.loop.execute { member.shutdown(deadline: deadline, waiter: continuation) }
                if !scheduled { continuation.resume() }
            }
        }
    }

    /// Starts stopping every member without waiting (from a transport's `deinit`).
    package func shutdownWithoutWaiting() {
        for member in closeAll() {
            member.loop.execute { member.shutdown(deadline: .now, waiter: nil) }
        }
    }

    private func closeAll() -> [Member] {
        state.withLock { state in
            state.closed = true
            return Array(state.members.values)
        }
    }
}
