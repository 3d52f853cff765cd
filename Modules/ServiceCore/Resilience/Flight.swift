import HTTPTypes
import Synchronization

/// One shared upstream call of ``SingleFlightMiddleware`` and the callers waiting for it.
final class Flight: Sendable {
    private typealias Continuation = CheckedContinuation<Result<HTTPResponse, any Error>, any Error>

    /// The waiters in arrival order, by id; a handful at most, so lists are cheaper than tables.
    private struct State: Sendable {
        var waiters: [(id: Int, continuation: Continuation)] = []
        var cancelled: [Int] = []
        var nextID = 0
        var result: Result<HTTPResponse, any Error>?
    }

    /// What the call is: who may join it.
    let key: SingleFlightMiddleware.Key
    private let state = Mutex(State())

    init(key: SingleFlightMiddleware.Key) {
        self.key = key
    }

    /// The callers waiting now.
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Hands the call's result to every waiter, and to those that come later; returns it for the
    /// caller that made the call. A response with waiters carries one ``SharedDecodings`` for
    /// all of them, so its body is decoded once.
    func finish(_ result: Result<HTTPResponse, any Error>) -> Result<HTTPResponse, any Error> {
        let (shared, waiters) = state.withLock { state in
            var shared = result
            if !state.waiters.isEmpty, case .success(var response) = result {
                response.sharedDecodings = SharedDecodings()
                shared = .success(response)
            }
            state.result = shared
            defer { state.waiters = [] }
            return (shared, state.waiters)
        }
        for waiter in waiters { waiter.continuation.resume(returning: shared) }
        return shared
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
                    if let index = state.cancelled.firstIndex(of: id) {
                        state.cancelled.remove(at: index)
                        return .failure(CancellationError())
                    }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Continuation? in
                guard state.result == nil else { return nil }
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.append(id)
                    return nil
                }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
