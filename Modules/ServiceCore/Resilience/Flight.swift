import HTTPTypes
import Synchronization

/// One shared upstream call of ``SingleFlightMiddleware`` and the callers waiting for it.
final class Flight: Sendable {
    private struct State: Sendable {
        var waiters: [Int: CheckedContinuation<Result<HTTPResponse, any Error>, any Error>] = [:]
        var cancelled: Set<Int> = []
        var nextID = 0
        var result: Result<HTTPResponse, any Error>?
    }

    private let state = Mutex(State())

    /// The callers waiting now.
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Hands the call's result to every waiter, and to those that come later.
    func finish(_ result: Result<HTTPResponse, any Error>) {
        let waiters = state.withLock { state in
            state.result = result
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Waits for the call's result; throws `CancellationError` when the waiting task is
    /// cancelled, without affecting the call or the other waiters.
    func wait() async throws -> Result<HTTPResponse, any Error> {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let now = state.withLock { state -> Result<Result<HTTPResponse, any Error>, any Error>? in
                    if let result = state.result { return .success(result) }
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard state.result == nil else {
                    return nil as CheckedContinuation<Result<HTTPResponse, any Error>, any Error>?
                }
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
