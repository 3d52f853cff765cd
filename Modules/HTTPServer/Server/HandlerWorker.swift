/// A handler task that answers one request after another for connections of its loop, parked
/// between them (see ``HandlerWorkers``).
final class HandlerWorker: @unchecked Sendable {
    // `@unchecked Sendable`: `task` and `first` are set on the loop's thread before the task
    // first runs there, and `first` is taken on the loop's thread.

    /// A request to answer, and the connection the answer goes to.
    struct Job: Sendable {
        let request: ServerRequest
        let connection: ServerConnection
        /// The connection's number for the request, so that a late answer is dropped.
        let generation: UInt64
    }

    /// The task the worker runs in.
    var task: Task<Void, Never>?
    /// The job a new worker starts with, until its task takes it.
    var first: Job?

    /// Cancels the request being handled. A cancelled task stays cancelled, so the worker ends
    /// after that request instead of parking.
    func cancel() {
        task?.cancel()
    }
}
