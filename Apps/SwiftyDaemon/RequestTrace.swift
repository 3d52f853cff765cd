import Synchronization

/// What one app request did upstream, for its access-log line; bound to the handling task.
final class RequestTrace: Sendable {
    /// One upstream call.
    struct Call: Sendable {
        var module: String
        var operation: String
        var outcome: String
        var milliseconds: Int
    }

    /// The app request's id, also sent upstream as `X-Request-ID`.
    let requestID: String
    private let calls = Mutex<[Call]>([])
    private let pattern = Mutex<String?>(nil)

    init(requestID: String) {
        self.requestID = requestID
    }

    func record(_ call: Call) {
        calls.withLock { $0.append(call) }
    }

    var recorded: [Call] { calls.withLock { $0 } }

    /// Records the route pattern that matched the request.
    func matched(_ route: String) {
        pattern.withLock { $0 = route }
    }

    /// The matched route pattern, or `nil` when no route matched.
    var route: String? { pattern.withLock { $0 } }

    /// The trace of the app request the current task serves.
    @TaskLocal static var current: RequestTrace?
}
