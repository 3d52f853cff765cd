import CMicroHTTPD
import Dispatch
import EventLoops
import Foundation
import Glibc
import Synchronization

/// One network thread: it drives one libmicrohttpd daemon in external-polling (epoll) mode and is
/// the task executor of the requests that daemon dispatches.
///
/// A handler task runs with this loop as its preferred executor, so its async hops (a default
/// actor, `Task.yield`, the continuation of an upstream call resumed elsewhere) come back to the
/// thread that owns the connection: answering after an async hop costs no thread switch, only
/// this loop's queue. Work from other threads wakes the loop through an `eventfd`.
///
/// It is also an ``ServiceCore/IOEventLoop``: a transport called by a handler can watch its own
/// sockets and timers here (see ``ServiceCore/IOEventLoops/current``), so the upstream call and
/// its answer stay on this thread.
final class EventLoop: TaskExecutor, IOEventLoop, @unchecked Sendable {
    // `@unchecked Sendable`: `daemon` is written once before the thread starts and read afterwards
    // (the thread start orders the write); `watchers`, `timers` and `stopHandlers` are touched on
    // the loop's thread only (the `IOEventLoop` contract); everything else shared between threads
    // is a `Mutex`, an `Atomic` or a descriptor whose system calls are thread-safe.

    private struct Timer {
        var id: UInt64
        var deadline: ContinuousClock.Instant
        var handler: () -> Void
    }

    private struct Queue {
        var jobs: [UnownedJob] = []
        /// Work handed over through ``execute(_:)``.
        var work: [@Sendable () -> Void] = []
        var closed = false

        var isEmpty: Bool { jobs.isEmpty && work.isEmpty }
    }

    let core: ServerCore
    private(set) var daemon: OpaquePointer?
    /// libmicrohttpd's epoll descriptor. It is waited on beside ``epollFD`` (with `poll`), not
    /// inside it: an epoll set that sits in another one makes every `EPOLL_CTL_ADD` on it take
    /// the kernel's global nested-epoll path, and libmicrohttpd adds a connection back to its set
    /// each time a suspended request is resumed.
    private var mhdFD: Int32 = -1
    private let epollFD: Int32
    private let wakeFD: Int32
    private let queue = Mutex(Queue())
    private let stopRequested = Atomic<Bool>(false)
    private let loopThread = Atomic<UInt>(0)
    private let exited = DispatchSemaphore(value: 0)
    private var started = false
    private var sweepInterval: Duration?
    // Loop thread only.
    private var watchers: [Int32: (IOReadiness) -> Void] = [:]
    private var timers: [Timer] = []
    private var nextTimerID: UInt64 = 0
    private var stopHandlers: [() -> Void] = []
    /// The jobs and work being run by ``runQueuedJobs()`` (loop thread only).
    private var takenJobs: [UnownedJob] = []
    private var takenWork: [@Sendable () -> Void] = []
    private var runningJobs = false

    /// Creates the loop's epoll and wake descriptors; `nil` when the system refuses them.
    init?(core: ServerCore) {
        self.core = core
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        // On failure `deinit` still runs (every property is set) and closes what was opened.
        guard epollFD >= 0, wakeFD >= 0 else { return nil }
    }

    deinit {
        if epollFD >= 0 { Glibc.close(epollFD) }
        if wakeFD >= 0 { Glibc.close(wakeFD) }
    }

    /// Whether the caller runs on this loop's thread.
    var isCurrent: Bool { loopThread.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Starts the thread that drives `daemon`; false when its descriptors cannot be watched.
    /// - Parameter sweepInterval: How often this loop runs ``ServerCore/expireOverdue(now:)``; `nil` for never.
    func start(daemon: OpaquePointer, name: String, sweepInterval: Duration?) -> Bool {
        let mhdFD = swifty_mhd_epoll_fd(daemon)
        guard mhdFD >= 0, watch(wakeFD) else { return false }
        self.mhdFD = mhdFD
        self.daemon = daemon
        self.sweepInterval = sweepInterval
        started = true
        let thread = Thread { [self] in
            ThreadNaming.nameCurrentThread(name)
            self.runLoop()
        }
        thread.start()
        return true
    }

    private func watch(_ fd: Int32) -> Bool {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        return epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0
    }

    /// Wakes the loop from another thread so it runs its queue and libmicrohttpd again.
    func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    /// Queues a job of a task that prefers this executor.
    func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        guard push({ $0.jobs.append(unownedJob) }) else {
            // The loop has stopped (the server shut down): late work of abandoned handlers runs
            // on the global executor instead, so those tasks still finish.
            globalConcurrentExecutor.enqueue(unownedJob)
            return
        }
    }

    /// Adds to the queue unless the loop has stopped, waking the loop when the queue was empty
    /// and the caller is another thread; `false` when the loop has stopped.
    private func push(_ add: (inout Queue) -> Void) -> Bool {
        let (accepted, wasEmpty) = queue.withLock { queue -> (Bool, Bool) in
            guard !queue.closed else { return (false, false) }
            let wasEmpty = queue.isEmpty
            add(&queue)
            return (true, wasEmpty)
        }
        if wasEmpty && !isCurrent { wake() }
        return accepted
    }

    /// Asks the loop to stop and waits until its thread has run its last turn.
    func stop() {
        guard started else { return }
        started = false
        stopRequested.store(true, ordering: .relaxed)
        wake()
        exited.wait()
    }

    /// Runs the queued jobs (and those they queue), up to a bound; only on the loop's thread.
    func runQueuedJobs() {
        // Not re-entered: a job that led here again would find the arrays below in use. The
        // outer call runs whatever was queued meanwhile on its next pass.
        guard !runningJobs else { return }
        runningJobs = true
        defer { runningJobs = false }
        for _ in 0..<64 {
            // The queue's arrays and these two trade places, so both keep their capacity and no
            // turn allocates (taking a copy and emptying the queue's would reallocate it).
            queue.withLock { queue in
                swap(&queue.jobs, &takenJobs)
                swap(&queue.work, &takenWork)
            }
            if takenJobs.isEmpty && takenWork.isEmpty { return }
            for item in takenWork { item() }
            for job in takenJobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            takenJobs.removeAll(keepingCapacity: true)
            takenWork.removeAll(keepingCapacity: true)
        }
    }

    // MARK: IOEventLoop

    /// Runs `work` on the loop's thread soon; `false` when the loop has stopped.
    @discardableResult
    func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        push { $0.work.append(work) }
    }

    /// Watches a descriptor (loop thread only).
    func watch(_ descriptor: Int32, for interest: IOInterest, handler: @escaping (IOReadiness) -> Void) -> Bool {
        var event = epoll_event()
        event.events =
            (interest.contains(.readable) ? EPOLLIN.rawValue : 0)
            | (interest.contains(.writable) ? EPOLLOUT.rawValue : 0)
        event.data.fd = descriptor
        let operation = watchers[descriptor] == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD
        guard epoll_ctl(epollFD, operation, descriptor, &event) == 0 else { return false }
        watchers[descriptor] = handler
        return true
    }

    /// Stops watching a descriptor (loop thread only).
    func unwatch(_ descriptor: Int32) {
        guard watchers.removeValue(forKey: descriptor) != nil else { return }
        var event = epoll_event()
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, descriptor, &event)
    }

    /// Schedules a one-shot timer (loop thread only).
    func schedule(at deadline: ContinuousClock.Instant, _ handler: @escaping () -> Void) -> IOTimerID {
        nextTimerID += 1
        timers.append(Timer(id: nextTimerID, deadline: deadline, handler: handler))
        return IOTimerID(rawValue: nextTimerID)
    }

    /// Forgets a timer (loop thread only).
    func cancelTimer(_ id: IOTimerID) {
        timers.removeAll { $0.id == id.rawValue }
    }

    /// Registers a handler for the loop's last turn (loop thread only).
    func whenStopping(_ handler: @escaping () -> Void) {
        stopHandlers.append(handler)
    }

    /// Fires the timers whose deadline has passed, in deadline order; a handler may schedule more.
    private func runDueTimers(now: ContinuousClock.Instant) {
        // Bounded: timers scheduled by the handlers below wait for the next turn.
        for _ in 0..<timers.count {
            var due: Int?
            for index in timers.indices where timers[index].deadline <= now {
                if let earliest = due, timers[earliest].deadline <= timers[index].deadline { continue }
                due = index
            }
            guard let due else { return }
            let timer = timers.remove(at: due)
            timer.handler()
        }
    }

    /// Whole milliseconds from `now` until `deadline`, rounded up, between 0 and 1000.
    private static func milliseconds(from now: ContinuousClock.Instant, to deadline: ContinuousClock.Instant) -> Int32 {
        guard deadline > now else { return 0 }
        let left = now.duration(to: deadline)
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return Int32(max(0, min(milliseconds + 1, 1000)))
    }

    private static func readiness(_ events: UInt32) -> IOReadiness {
        var readiness: IOReadiness = []
        if events & EPOLLIN.rawValue != 0 { readiness.insert(.readable) }
        if events & EPOLLOUT.rawValue != 0 { readiness.insert(.writable) }
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { readiness.insert(.error) }
        return readiness
    }

    /// Waits up to `timeout` ms until libmicrohttpd's descriptors or this loop's are ready;
    /// returns how many of this loop's events were stored in `events` (libmicrohttpd's are
    /// handled by the next `MHD_run`).
    private func wait(timeout: Int32, into events: inout [epoll_event]) -> Int32 {
        var descriptors = (
            pollfd(fd: mhdFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: epollFD, events: Int16(POLLIN), revents: 0)
        )
        let ready = withUnsafeMutableBytes(of: &descriptors) { raw in
            poll(raw.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, timeout)
        }
        guard ready > 0, descriptors.1.revents != 0 else { return 0 }
        return epoll_wait(epollFD, &events, Int32(events.count), 0)
    }

    private func runLoop() {
        loopThread.store(UInt(pthread_self()), ordering: .relaxed)
        // libmicrohttpd sends with MSG_NOSIGNAL; blocking SIGPIPE here is a second guard.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        guard let daemon else { return }
        IOEventLoops.setCurrent(self)
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        let clock = ContinuousClock()
        var nextSweep = sweepInterval.map { clock.now + $0 }
        while !stopRequested.load(ordering: .relaxed) {
            runQueuedJobs()
            let turn = clock.now
            if !timers.isEmpty { runDueTimers(now: turn) }
            if let due = nextSweep, let interval = sweepInterval, turn >= due {
                _ = core.expireOverdue()
                nextSweep = turn + interval
            }
            _ = MHD_run(daemon)
            // Timers that came due during libmicrohttpd's turn (an upstream call started by a
            // handler it dispatched asks for one at 0 ms) fire now, before waiting: the requests
            // leave in one burst at the end of the turn.
            if !timers.isEmpty { runDueTimers(now: clock.now) }
            var timeout: Int32 = 1000
            if queue.withLock({ !$0.isEmpty }) {
                // More work queued: only look (without waiting) at the watched descriptors, which
                // libmicrohttpd's turn above does not cover, so they are never starved.
                if watchers.isEmpty { continue }
                timeout = 0
            } else {
                var mhdTimeout: UInt64 = 0
                if MHD_get_timeout(daemon, &mhdTimeout) == .YES { timeout = Int32(min(mhdTimeout, 1000)) }
                let now = clock.now
                if let due = nextSweep { timeout = min(timeout, Self.milliseconds(from: now, to: due)) }
                if let due = timers.lazy.map(\.deadline).min() {
                    timeout = min(timeout, Self.milliseconds(from: now, to: due))
                }
            }
            let count = wait(timeout: timeout, into: &events)
            for index in 0..<max(0, Int(count)) {
                let fd = events[index].data.fd
                if fd == wakeFD {
                    var value: UInt64 = 0
                    _ = Glibc.read(wakeFD, &value, 8)
                } else if let watcher = watchers[fd] {
                    watcher(Self.readiness(events[index].events))
                }
            }
        }
        // Last turn: answers resumed by the shutdown sweep get queued before the daemon stops.
        runQueuedJobs()
        _ = MHD_run(daemon)
        // Whoever keeps work on this loop ends it now (their callers' jobs are queued below).
        let handlers = stopHandlers
        stopHandlers = []
        for handler in handlers { handler() }
        timers = []
        for fd in Array(watchers.keys) { unwatch(fd) }
        runQueuedJobs()
        let (leftover, work) = queue.withLock { queue -> ([UnownedJob], [@Sendable () -> Void]) in
            queue.closed = true
            defer {
                queue.jobs.removeAll()
                queue.work.removeAll()
            }
            return (queue.jobs, queue.work)
        }
        // Still on the loop's thread, as `execute` promised; what they hand over now is refused.
        for item in work { item() }
        for job in leftover { globalConcurrentExecutor.enqueue(job) }
        IOEventLoops.setCurrent(nil)
        loopThread.store(0, ordering: .relaxed)
        exited.signal()
    }
}
