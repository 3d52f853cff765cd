import CEpoll
import Dispatch
import Foundation
import Glibc
import Synchronization

/// One thread that waits on epoll and runs work: the task executor of the tasks that prefer it
/// and an ``IOEventLoop`` whose descriptors, timers and hand-overs all run on that thread.
///
/// Loops are made and started by an ``EventLoopGroup``. A task that prefers a loop as its
/// executor (an HTTP server's request handler does) has its async hops come back to the loop's
/// thread, and a transport built with the group finds that loop with ``isCurrent`` and keeps its
/// sockets and timers on it: an upstream call then costs no hand-over between threads. Work from
/// other threads wakes the loop through an `eventfd`.
public final class EventLoop: TaskExecutor, IOEventLoop, @unchecked Sendable {
    // `@unchecked Sendable`: `watchers`, `timers`, `stopHandlers` and `turnEndWork`
    // are touched on the loop's thread only (the `IOEventLoop` contract); everything else shared
    // between threads is a `Mutex`, an `Atomic` or a descriptor whose system calls are thread-safe.

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

    private let epollFD: Int32
    private let wakeFD: Int32
    private let queue = Mutex(Queue())
    private let stopRequested = Atomic<Bool>(false)
    private let loopThread = Atomic<UInt>(0)
    private let exited = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)
    // Loop thread only.
    private var watchers: [Int32: (IOReadiness) -> Void] = [:]
    private var timers: [Timer] = []
    /// The earliest deadline of `timers`, kept so that a busy turn does not scan them.
    private var earliestDeadline: ContinuousClock.Instant?
    private var nextTimerID: UInt64 = 0
    private var stopHandlers: [() -> Void] = []
    /// Work for the end of the turn (``atEndOfTurn(_:)``), and whether the loop still takes it.
    private var turnEndWork: [() -> Void] = []
    private var takesTurnEndWork = true
    /// The buffers ``runQueuedJobs()`` trades with the queue, kept between runs (loop thread only).
    private var takenJobs: [UnownedJob] = []
    private var takenWork: [@Sendable () -> Void] = []
    private var runningJobs = false
    /// The jobs a run of ``runQueuedJobs()`` set aside when its time was up, those before
    /// `firstSetAside` already run (loop thread only).
    private var setAsideJobs: [UnownedJob] = []
    private var firstSetAside = 0
    /// How long one run of ``runQueuedJobs()`` goes on before the loop looks at its descriptors
    /// again: about what a few requests' work takes.
    static let jobTimeSlice: Duration = .microseconds(250)
    /// How many jobs run between two readings of the clock (a reading costs about as much as a
    /// small job's bookkeeping).
    private static let jobsBetweenClockReads = 4
    private let clock = ContinuousClock()

    /// Creates the loop's epoll and wake descriptors; `nil` when the system refuses them.
    init?() {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        // On failure `deinit` still runs (every property is set) and closes what was opened.
        guard epollFD >= 0, wakeFD >= 0 else { return nil }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeFD
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0 else { return nil }
    }

    deinit {
        if epollFD >= 0 { Glibc.close(epollFD) }
        if wakeFD >= 0 { Glibc.close(wakeFD) }
    }

    /// Whether the kernel has `epoll_pwait2` (Linux 5.11 and newer, not every emulator): the loops
    /// then wait to the nanosecond, else to the millisecond with `epoll_wait`.
    static let kernelWaitsPrecisely: Bool = {
        let probe = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        var event = epoll_event()
        var none = timespec(tv_sec: 0, tv_nsec: 0)
        return epoll_pwait2(probe, &event, 1, &none, nil) >= 0 || errno != ENOSYS
    }()

    /// Whether the caller runs on this loop's thread: the check a transport makes to find the
    /// loop of the handler that calls it.
    public var isCurrent: Bool { loopThread.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Starts the loop's thread, named `name`.
    func start(name: String) {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            ThreadNaming.nameCurrentThread(name)
            self.runLoop()
        }
        thread.start()
    }

    /// Asks the loop to stop and waits until its thread has run its last turn; not from the
    /// loop's own thread.
    func stop() {
        guard started.exchange(false, ordering: .relaxed) else { return }
        stopRequested.store(true, ordering: .relaxed)
        wake()
        exited.wait()
    }

    /// Wakes the loop from another thread so that it runs a turn.
    public func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    /// Queues a job of a task that prefers this executor.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        guard push({ $0.jobs.append(unownedJob) }) else {
            // The loop has stopped: late work of abandoned tasks runs on the global executor
            // instead, so those tasks still finish.
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

    /// Runs the queued jobs and work (and those they queue), up to a bound; loop thread only.
    ///
    /// The loop runs it at the start of every turn; a descriptor's handler may run it sooner
    /// (after starting a task that prefers this loop, so a task that does not really wait
    /// finishes at once). A run that has taken ``jobTimeSlice`` sets the jobs it has not reached
    /// aside for the next turn, which starts with them: what arrived on the descriptors
    /// meanwhile is read first. So a burst of work (one upstream answer resuming many requests)
    /// does not keep the requests that arrive during it waiting for all of it.
    ///
    /// Before the handlers of ready descriptors run, the jobs still queued join those set aside,
    /// so a handler's own run takes only what the handler started (a new request's task and the
    /// upstream calls it makes), and a turn fires its due timers (the writes of those calls)
    /// before it goes on with the backlog. What a ready descriptor starts thus waits for at most
    /// a slice of the backlog, never for all of it.
    public func runQueuedJobs() {
        runQueuedJobs(startingWithSetAside: false, timeSliced: true)
    }

    /// ``runQueuedJobs()``; the loop's turns start with the jobs a run set aside, and its last
    /// turn runs them all on the loop, without a time slice.
    private func runQueuedJobs(startingWithSetAside: Bool, timeSliced: Bool) {
        // Not re-entered: a job that led here again would find the buffers below in use. The
        // outer call runs whatever was queued meanwhile on its next pass.
        guard !runningJobs else { return }
        runningJobs = true
        // The queue's arrays and these trade places, so all keep their capacity and no turn
        // allocates (taking a copy and emptying the queue's would reallocate it). They are
        // locals while the jobs run: a property of the loop would be checked for exclusive
        // access at every use, the jobs being calls the compiler cannot see through.
        var jobs: [UnownedJob] = []
        var work: [@Sendable () -> Void] = []
        var setAside: [UnownedJob] = []
        swap(&jobs, &takenJobs)
        swap(&work, &takenWork)
        swap(&setAside, &setAsideJobs)
        var setAsideStart = firstSetAside
        defer {
            swap(&jobs, &takenJobs)
            swap(&work, &takenWork)
            swap(&setAside, &setAsideJobs)
            firstSetAside = setAsideStart
            runningJobs = false
        }
        let executor = asUnownedTaskExecutor()
        // The slice starts with the first job, so a run that finds nothing reads no clock.
        var deadline: ContinuousClock.Instant?
        var ran = 0
        /// Runs `job`; `true` when the slice is spent (the clock is read after every few jobs).
        func runIsOver(after job: UnownedJob) -> Bool {
            if timeSliced && deadline == nil { deadline = clock.now.advanced(by: Self.jobTimeSlice) }
            job.runSynchronously(on: executor)
            ran += 1
            guard let deadline, ran % Self.jobsBetweenClockReads == 0 else { return false }
            return clock.now >= deadline
        }
        if startingWithSetAside {
            while setAsideStart < setAside.count {
                let job = setAside[setAsideStart]
                setAsideStart += 1
                if runIsOver(after: job) { return }
            }
            setAside.removeAll(keepingCapacity: true)
            setAsideStart = 0
        }
        for _ in 0..<64 {
            queue.withLock { queue in
                swap(&queue.jobs, &jobs)
                swap(&queue.work, &work)
            }
            if jobs.isEmpty && work.isEmpty { return }
            for item in work { item() }
            work.removeAll(keepingCapacity: true)
            for index in jobs.indices {
                if runIsOver(after: jobs[index]) {
                    setAside.append(contentsOf: jobs[(index + 1)...])
                    jobs.removeAll(keepingCapacity: true)
                    return
                }
            }
            jobs.removeAll(keepingCapacity: true)
        }
    }

    /// Moves the queued jobs behind those set aside, so the handlers about to run take only
    /// the jobs they queue themselves in their own runs (loop thread, between runs).
    private func setAsideQueuedJobs() {
        // The jobs already run leave the list first: under a backlog that never drains, it
        // would otherwise keep every job set aside since it was last empty.
        setAsideJobs.removeSubrange(..<firstSetAside)
        firstSetAside = 0
        queue.withLock { queue in swap(&queue.jobs, &takenJobs) }
        setAsideJobs.append(contentsOf: takenJobs)
        takenJobs.removeAll(keepingCapacity: true)
    }

    // MARK: IOEventLoop

    /// Runs `work` on the loop's thread soon; `false` when the loop has stopped.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        push { $0.work.append(work) }
    }

    /// Watches a descriptor (loop thread only).
    public func watch(_ descriptor: Int32, for interest: IOInterest, handler: @escaping (IOReadiness) -> Void) -> Bool {
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
    public func unwatch(_ descriptor: Int32) {
        guard watchers.removeValue(forKey: descriptor) != nil else { return }
        var event = epoll_event()
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, descriptor, &event)
    }

    /// Schedules a one-shot timer (loop thread only).
    public func schedule(at deadline: ContinuousClock.Instant, _ handler: @escaping () -> Void) -> IOTimerID {
        nextTimerID += 1
        timers.append(Timer(id: nextTimerID, deadline: deadline, handler: handler))
        if earliestDeadline.map({ deadline < $0 }) ?? true { earliestDeadline = deadline }
        return IOTimerID(rawValue: nextTimerID)
    }

    /// Forgets a timer (loop thread only).
    public func cancelTimer(_ id: IOTimerID) {
        guard let index = timers.firstIndex(where: { $0.id == id.rawValue }) else { return }
        let removed = timers.remove(at: index)
        if removed.deadline == earliestDeadline { earliestDeadline = timers.lazy.map(\.deadline).min() }
    }

    /// Runs `work` on the loop's thread once the work of the current turn is done, just before
    /// the loop waits for its descriptors again (loop thread only).
    ///
    /// Unlike ``execute(_:)``, whose work a nested ``runQueuedJobs()`` may run at once, this waits
    /// for every ready descriptor and queued job of the turn: what they produce (an access log's
    /// lines) can then go out in one system call.
    /// - Returns: `false` when the loop has run its last turn: `work` was not and will not be run.
    @discardableResult
    public func atEndOfTurn(_ work: @escaping () -> Void) -> Bool {
        guard takesTurnEndWork else { return false }
        turnEndWork.append(work)
        return true
    }

    /// Registers a handler for the loop's last turn (loop thread only).
    public func whenStopping(_ handler: @escaping () -> Void) {
        stopHandlers.append(handler)
    }

    // MARK: The turn

    /// Runs the end-of-turn work, including what it adds itself (bounded: what is added past
    /// 64 rounds waits for the next turn).
    private func runTurnEndWork() {
        for _ in 0..<64 {
            if turnEndWork.isEmpty { return }
            var work: [() -> Void] = []
            swap(&work, &turnEndWork)
            for item in work { item() }
        }
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
            earliestDeadline = timers.lazy.map(\.deadline).min()
            timer.handler()
        }
    }

    /// How long a turn may wait: until `deadline` (never before `now`), one second at most.
    static func timeout(from now: ContinuousClock.Instant, to deadline: ContinuousClock.Instant?) -> Duration {
        guard let deadline else { return .seconds(1) }
        return min(max(.zero, now.duration(to: deadline)), .seconds(1))
    }

    private static func readiness(_ events: UInt32) -> IOReadiness {
        var readiness: IOReadiness = []
        if events & EPOLLIN.rawValue != 0 { readiness.insert(.readable) }
        if events & EPOLLOUT.rawValue != 0 { readiness.insert(.writable) }
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { readiness.insert(.error) }
        return readiness
    }

    /// Waits up to `timeout` until this loop's descriptors are ready; returns how many events
    /// were stored in `events`. The timeout is exact to the nanosecond (`epoll_pwait2`), so a
    /// timer fires on time; where the kernel lacks it, whole milliseconds rounded up.
    private func wait(timeout: Duration, into events: inout [epoll_event]) -> Int32 {
        // A busy turn only looks: no conversion of a zero timeout.
        let (seconds, attoseconds) = timeout > .zero ? timeout.components : (0, 0)
        guard Self.kernelWaitsPrecisely else {
            let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            return epoll_wait(epollFD, &events, Int32(events.count), Int32(milliseconds))
        }
        var timeout = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        return epoll_pwait2(epollFD, &events, Int32(events.count), &timeout, nil)
    }

    private func runLoop() {
        loopThread.store(UInt(pthread_self()), ordering: .relaxed)
        // Sockets are written with MSG_NOSIGNAL; blocking SIGPIPE here is a second guard.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while !stopRequested.load(ordering: .relaxed) {
            // Due timers first: one due now was set by the last turn's handlers, to send what
            // they started, which should not wait for a slice of the backlog.
            if let earliestDeadline, case let now = clock.now, earliestDeadline <= now { runDueTimers(now: now) }
            runQueuedJobs(startingWithSetAside: true, timeSliced: true)
            if !turnEndWork.isEmpty { runTurnEndWork() }
            let timeout: Duration
            if firstSetAside < setAsideJobs.count || queue.withLock({ !$0.isEmpty }) || !turnEndWork.isEmpty {
                // More work queued: only look (without waiting) at the watched descriptors, so
                // they are never starved.
                if watchers.isEmpty { continue }
                timeout = .zero
            } else {
                timeout = Self.timeout(from: clock.now, to: earliestDeadline)
            }
            let count = wait(timeout: timeout, into: &events)
            if count > 0 { setAsideQueuedJobs() }
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
        lastTurn()
        loopThread.store(0, ordering: .relaxed)
        exited.signal()
    }

    private func lastTurn() {
        // Work queued by an owner's shutdown runs first.
        runQueuedJobs(startingWithSetAside: true, timeSliced: false)
        // Whoever keeps work on this loop ends it now (their callers' jobs are queued below).
        let handlers = stopHandlers
        stopHandlers = []
        for handler in handlers { handler() }
        timers = []
        earliestDeadline = nil
        for fd in Array(watchers.keys) { unwatch(fd) }
        runQueuedJobs(startingWithSetAside: true, timeSliced: false)
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
        // What is added from here on is refused (its caller does it at once).
        takesTurnEndWork = false
        runTurnEndWork()
        // Only end-of-turn work that ran the queue itself can have set jobs aside by now.
        for job in setAsideJobs[firstSetAside...] { globalConcurrentExecutor.enqueue(job) }
        setAsideJobs = []
        firstSetAside = 0
        for job in leftover { globalConcurrentExecutor.enqueue(job) }
    }
}
