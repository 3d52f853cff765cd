import Synchronization

extension EventLoop {
    /// Suspends the calling task until `deadline`, timed by this loop's timers: a task that
    /// prefers this loop resumes on its thread with no other thread woken on the way.
    /// - Throws: `CancellationError` when the task is cancelled before the deadline (the timer is
    ///   then forgotten), or when the loop has stopped.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let sleep = LoopSleep()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleep.begin(continuation) else { return }
                if isCurrent {
                    sleep.arm(on: self, until: deadline)
                } else if !execute({ sleep.arm(on: self, until: deadline) }) {
                    sleep.end(throwing: true)
                }
            }
        } onCancel: {
            if let timer = sleep.end(throwing: true) {
                execute { self.cancelTimer(timer) }
            }
        }
    }
}

extension EventLoopGroup {
    /// Suspends the calling task for `duration`, timed by the caller's loop when it runs on one
    /// of this group's (``EventLoop/sleep(until:)``), else by the next loop.
    /// - Throws: `CancellationError` when the task is cancelled first or the loops have stopped.
    public func sleep(for duration: Duration) async throws {
        let deadline = ContinuousClock.now + duration
        try await (loopOfCaller ?? next()).sleep(until: deadline)
    }
}

/// One ``EventLoop/sleep(until:)``: its continuation and timer, resumed exactly once by the
/// timer or by cancellation, whichever comes first.
private final class LoopSleep: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: IOTimerID?
        var ended = false
    }

    private let state = Mutex(State())

    /// Keeps the continuation; `false` (having resumed it with `CancellationError`) when the
    /// sleep was cancelled before it began.
    func begin(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            if state.ended { return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Starts the timer on the loop's thread, unless the sleep ended meanwhile.
    func arm(on loop: EventLoop, until deadline: ContinuousClock.Instant) {
        state.withLock { state in
            guard !state.ended else { return }
            state.timer = loop.schedule(at: deadline) { self.end(throwing: false) }
        }
    }

    /// Ends the sleep, resuming its continuation if it began: normally when the timer fired,
    /// with `CancellationError` otherwise. Returns the timer to forget, if one was started.
    @discardableResult
    func end(throwing: Bool) -> IOTimerID? {
        let (continuation, timer) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, IOTimerID?) in
            guard !state.ended else { return (nil, nil) }
            state.ended = true
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        if throwing {
            continuation?.resume(throwing: CancellationError())
        } else {
            continuation?.resume()
        }
        return timer
    }
}
