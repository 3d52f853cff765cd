import CSpawn
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension ChildProcess {
    /// Waits for one child on a thread of its own (`waitid` on its ID, never on any child), signals
    /// it while it may still be signalled, and wakes whoever waits for its end.
    final class Reaper: Sendable {
        /// One waiter, from the moment its ID is handed out.
        private enum Waiter {
            /// Not added yet.
            case reserved
            /// Woken (timed out or cancelled) before it was added: it is woken as it is added.
            case woken
            /// Added: called once, when the child has ended or when woken.
            case waiting(@Sendable () -> Void)
        }

        private struct State {
            var reaped = false
            var termination: Termination?
            var waiters: [Int: Waiter] = [:]
            var lastWaiterID = 0
        }

        /// The child's process ID.
        let pid: Int32
        private let state = Mutex(State())

        init(pid: Int32) {
            self.pid = pid
        }

        /// How the child ended, once it has been reaped and its output read.
        var termination: Termination? { state.withLock { $0.termination } }

        /// Sends `signal` to the child unless it has been reaped.
        ///
        /// The ID is the child's until it is reaped, and it is reaped under the same lock, so the
        /// signal never reaches another process that got the ID since.
        func send(_ signal: Int32) {
            state.withLock { state in
                if !state.reaped { _ = kill(pid, signal) }
            }
        }

        /// Starts the thread that waits for the child, then (at most 2 s longer) for `collectors` to
        /// reach the end of their pipes, and then sets ``termination`` and wakes every waiter.
        func startReaping(afterOutputOf collectors: [Collector]) {
            let thread = Thread { [self] in
                let status = waitForEnd()
                let deadline = DispatchTime.now() + .seconds(2)
                for collector in collectors {
                    _ = collector.ended.wait(timeout: deadline)
                }
                finish(Termination(waitStatus: status))
            }
            thread.name = "child-reaper"
            thread.start()
        }

        /// Blocks until the child ends, reaps it and returns its wait status (`nil` if something else
        /// in this process reaped it first).
        private func waitForEnd() -> Int32? {
            // Wait without reaping (WNOWAIT), so that the ID stays the child's until it is reaped
            // below, under the lock that `send` takes.
            var info = siginfo_t()
            var result: Int32
            repeat {
                result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
            } while result != 0 && errno == EINTR
            return state.withLock { state in
                var status: Int32 = 0
                var reaped: Int32
                repeat {
                    reaped = waitpid(pid, &status, 0)
                } while reaped < 0 && errno == EINTR
                state.reaped = true
                return reaped == pid ? status : nil
            }
        }

        private func finish(_ termination: Termination) {
            let waiters = state.withLock { state in
                state.termination = termination
                defer { state.waiters = [:] }
                return state.waiters.values
            }
            for case .waiting(let wake) in waiters {
                wake()
            }
        }

        /// A new waiter's ID, to pass to ``addWaiter(_:_:)`` and ``wake(_:)``.
        func reserveWaiter() -> Int {
            state.withLock { state in
                state.lastWaiterID += 1
                state.waiters[state.lastWaiterID] = .reserved
                return state.lastWaiterID
            }
        }

        /// Adds `wake`, called once: when the child has ended (at once if it has), or when
        /// ``wake(_:)`` is called with `id` (at once if it was already).
        func addWaiter(_ id: Int, _ wake: @escaping @Sendable () -> Void) {
            let now = state.withLock { state in
                guard state.termination == nil, case .reserved = state.waiters[id] else {
                    state.waiters[id] = nil
                    return true
                }
                state.waiters[id] = .waiting(wake)
                return false
            }
            if now { wake() }
        }

        /// Wakes waiter `id` now, or as it is added; does nothing once it has been woken.
        func wake(_ id: Int) {
            let waiter = state.withLock { state -> Waiter? in
                switch state.waiters[id] {
                case .reserved:
                    state.waiters[id] = .woken
                    return nil
                case .waiting:
                    return state.waiters.removeValue(forKey: id)
                case .woken, nil:
                    return nil
                }
            }
            if case .waiting(let wake) = waiter { wake() }
        }
    }
}
