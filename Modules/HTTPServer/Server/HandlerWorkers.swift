import EventLoops
import Synchronization

/// The handler tasks of one loop, reused from request to request.
///
/// A Swift task keeps the memory its async frames grew until it ends. A task made for each
/// request allocates its frames' memory again each time: some twenty blocks of about 1 KB for
/// a proxied request, whose handler runs through a dozen middleware layers. A worker that has
/// answered a request parks instead of ending, and the loop's next request resumes it, so its
/// frames reuse memory the task already has.
///
/// A request goes to the last worker parked, or to a new worker when none is. A worker parks
/// after answering unless its request was cancelled (a task cannot be uncancelled), its handler
/// returned off the loop's thread, the server is stopping, or ``capacity`` workers are parked
/// already; otherwise it ends. Loop thread only.
final class HandlerWorkers: @unchecked Sendable {
    // `@unchecked Sendable`: every mutable property is touched on `loop`'s thread only.

    /// The most workers kept parked: enough for the requests one loop handles at a time under
    /// load, each holding the frame memory of the largest request it answered (tens of KB).
    static let capacity = 128

    private let loop: EventLoop
    private let core: ServerCore
    /// The parked workers, each with the continuation that resumes it.
    private var parked: [(worker: HandlerWorker, continuation: UnsafeContinuation<HandlerWorker.Job?, Never>)] = []
    private var stopped = false

    init(loop: EventLoop, core: ServerCore) {
        self.loop = loop
        self.core = core
    }

    /// Hands `job` to a parked worker, or to a new one; returns the worker.
    func start(_ job: consuming HandlerWorker.Job) -> HandlerWorker {
        if let (worker, continuation) = parked.popLast() {
            continuation.resume(returning: job)
            return worker
        }
        let worker = HandlerWorker()
        // Handed over through the worker, not captured: a task holds what its closure captured
        // until it ends.
        worker.first = job
        core.liveWorkers.add(1, ordering: .relaxed)
        // The loop is the task's preferred executor: the handler and its hops stay on this thread.
        worker.task = Task(executorPreference: loop) {
            await self.run(worker)
            self.core.liveWorkers.subtract(1, ordering: .relaxed)
        }
        return worker
    }

    /// Ends the parked workers; workers still handling a request end after it.
    func stop() {
        stopped = true
        let ending = parked
        parked = []
        for (_, continuation) in ending { continuation.resume(returning: nil) }
    }

    private func run(_ worker: HandlerWorker) async {
        var next = worker.first.take()
        while next != nil {
            // Taken out of `next`, so that a parked worker holds no request or connection.
            guard await answer(next.take()!) else { return }
            next = await park(worker)
        }
    }

    /// Runs the handler for `job` and hands the answer to its connection; returns whether the
    /// worker may park.
    private func answer(_ job: consuming HandlerWorker.Job) async -> Bool {
        let response = await core.handler(job.request)
        let connection = job.connection
        let generation = job.generation
        guard loop.isCurrent else {
            loop.execute { connection.answer(response, generation: generation) }
            return false
        }
        connection.answer(response, generation: generation)
        return !Task.isCancelled
    }

    /// Waits for the next job; `nil` when the worker is to end.
    private func park(_ worker: HandlerWorker) async -> HandlerWorker.Job? {
        guard !stopped, parked.count < Self.capacity else { return nil }
        return await withUnsafeContinuation { parked.append((worker, $0)) }
    }
}
