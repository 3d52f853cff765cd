import CMicroHTTPD
import Dispatch
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
final class EventLoop: TaskExecutor, @unchecked Sendable {
    // `@unchecked Sendable`: `daemon` is written once before the thread starts and read afterwards
    // (the thread start orders the write); everything else shared between threads is a `Mutex`, an
    // `Atomic` or a descriptor whose system calls are thread-safe.

    private struct Queue {
        var jobs: [UnownedJob] = []
        var closed = false
    }

    let core: ServerCore
    private(set) var daemon: OpaquePointer?
    private let epollFD: Int32
    private let wakeFD: Int32
    private let queue = Mutex(Queue())
    private let stopRequested = Atomic<Bool>(false)
    private let loopThread = Atomic<UInt>(0)
    private let exited = DispatchSemaphore(value: 0)
    private var started = false
    private var sweepInterval: Duration?

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
    var isCurrentThread: Bool { loopThread.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Starts the thread that drives `daemon`; false when its descriptors cannot be watched.
    /// - Parameter sweepInterval: How often this loop runs ``ServerCore/expireOverdue(now:)``; `nil` for never.
    func start(daemon: OpaquePointer, name: String, sweepInterval: Duration?) -> Bool {
        let mhdFD = swifty_mhd_epoll_fd(daemon)
        guard mhdFD >= 0, watch(mhdFD), watch(wakeFD) else { return false }
        self.daemon = daemon
        self.sweepInterval = sweepInterval
        started = true
        let thread = Thread { [self] in self.runLoop() }
        thread.name = name
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
        let (accepted, wasEmpty) = queue.withLock { queue -> (Bool, Bool) in
            guard !queue.closed else { return (false, false) }
            queue.jobs.append(unownedJob)
            return (true, queue.jobs.count == 1)
        }
        guard accepted else {
            // The loop has stopped (the server shut down): late work of abandoned handlers runs
            // on the global executor instead, so those tasks still finish.
            globalConcurrentExecutor.enqueue(unownedJob)
            return
        }
        if wasEmpty && !isCurrentThread { wake() }
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
        for _ in 0..<64 {
            let jobs = queue.withLock { queue -> [UnownedJob] in
                defer { queue.jobs.removeAll(keepingCapacity: true) }
                return queue.jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    private func runLoop() {
        loopThread.store(UInt(pthread_self()), ordering: .relaxed)
        // libmicrohttpd sends with MSG_NOSIGNAL; blocking SIGPIPE here is a second guard.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        guard let daemon else { return }
        var events = [epoll_event](repeating: epoll_event(), count: 4)
        let clock = ContinuousClock()
        var nextSweep = sweepInterval.map { clock.now + $0 }
        while !stopRequested.load(ordering: .relaxed) {
            runQueuedJobs()
            if let due = nextSweep, let interval = sweepInterval, clock.now >= due {
                _ = core.expireOverdue()
                nextSweep = clock.now + interval
            }
            _ = MHD_run(daemon)
            if queue.withLock({ !$0.jobs.isEmpty }) { continue }
            var timeout: Int32 = 1000
            var mhdTimeout: UInt64 = 0
            if MHD_get_timeout(daemon, &mhdTimeout) == .YES { timeout = Int32(min(mhdTimeout, 1000)) }
            if let due = nextSweep {
                let untilSweep = clock.now.duration(to: due)
                let milliseconds = max(
                    0, untilSweep.components.seconds * 1000 + untilSweep.components.attoseconds / 1_000_000_000_000_000)
                timeout = min(timeout, Int32(min(milliseconds + 1, 1000)))
            }
            let count = epoll_wait(epollFD, &events, Int32(events.count), timeout)
            for index in 0..<max(0, Int(count)) where events[index].data.fd == wakeFD {
                var value: UInt64 = 0
                _ = Glibc.read(wakeFD, &value, 8)
            }
        }
        // Last turn: answers resumed by the shutdown sweep get queued before the daemon stops.
        runQueuedJobs()
        _ = MHD_run(daemon)
        let leftover = queue.withLock { queue -> [UnownedJob] in
            queue.closed = true
            defer { queue.jobs.removeAll() }
            return queue.jobs
        }
        for job in leftover { globalConcurrentExecutor.enqueue(job) }
        loopThread.store(0, ordering: .relaxed)
        exited.signal()
    }
}
