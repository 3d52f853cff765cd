import Synchronization

/// What one app request did upstream, for its access-log line; bound to the handling task.
final class RequestTrace: Sendable {
    /// One upstream call.
    struct Call: Sendable {
        var module: String
        var operation: String
        var outcome: String
        /// Attempts that reached the transport: more than 1 when retried, 0 when the answer of
        /// an identical read in flight was shared.
        var attempts: Int = 1
        var milliseconds: Int
    }

    /// The app request's id, also sent upstream as `X-Request-ID`.
    let requestID: String
    private struct State {
        var calls: [Call] = []
        var pattern: String?
    }

    private let state = Mutex(State())

    init(requestID: String) {
        self.requestID = requestID
    }

    func record(_ call: Call) {
        state.withLock { $0.calls.append(call) }
    }

    var recorded: [Call] { state.withLock { $0.calls } }

    /// Records the route pattern that matched the request.
    func matched(_ route: String) {
        state.withLock { $0.pattern = route }
    }

    /// The matched route pattern, or `nil` when no route matched.
    var route: String? { state.withLock { $0.pattern } }

    /// The trace of the app request the current task serves.
    @TaskLocal static var current: RequestTrace?
}
