import CCurl
import EventLoops
import Foundation
import ServiceCore
import Synchronization

/// The curl thread: one `CURLM` handle, owned and driven by one dedicated thread.
///
/// Other threads never touch the multi handle or an easy handle. They hand work over through
/// ``inbox`` (a `Mutex`) and wake the thread with `curl_multi_wakeup`, which is the one libcurl
/// call documented as safe from any thread; it is made under the inbox lock so it can never race
/// with `curl_multi_cleanup` at exit. Everything else below the inbox is touched by the curl
/// thread only. That is why `@unchecked Sendable` is safe here.
final class CurlMultiLoop: @unchecked Sendable {
    private enum Command {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
    }

    private struct Inbox {
        var commands: [Command] = []
        var accepting = true
        var shutdownDeadline: ContinuousClock.Instant?
        var exited = false
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let inbox = Mutex(Inbox())
    private let engine: CurlMultiEngine
    private var multi: UnsafeMutableRawPointer? { engine.multi }
    /// `swifty.curl.<n>`: the thread's name (at most 15 bytes, Linux's limit), unique among the
    /// last thousand transports, so tests and `top -H` can tell the threads apart.
    let threadName: String

    private static let instances = Atomic<Int>(0)

    /// Creates the multi handle and starts the thread that drives it.
    init(configuration: CurlTransport.Configuration) {
        threadName = "swifty.curl.\(CurlMultiLoop.instances.add(1, ordering: .relaxed).newValue % 1000)"
        engine = CurlMultiEngine(configuration: configuration)
        guard engine.multi != nil else {
            inbox.withLock { $0.exited = true }
            return
        }
        let thread = Thread { [self] in run() }
        thread.name = threadName
        thread.start()
    }

    /// Hands a transfer to the curl thread. Returns the error to throw when it cannot be taken.
    func submit(_ transfer: CurlTransfer) -> TransportError? {
        guard let multi else {
            return TransportError(
                .other, "libcurl could not be initialised (\(CurlGlobal.problem)), so \(transfer.summary) was not sent")
        }
        let accepted = inbox.withLock { box in
            guard box.accepting else { return false }
            box.commands.append(.add(transfer))
            if box.commands.count == 1 { curl_multi_wakeup(multi) }
            return true
        }
        return accepted ? nil : TransportError(.shutDown, "the transport was shut down before \(transfer.summary)")
    }

    /// Asks the curl thread to stop a transfer; it resumes the caller with `cancelled` if it has not
    /// finished yet.
    func cancel(_ transfer: CurlTransfer) {
        transfer.cancelRequested.store(true, ordering: .releasing)
        guard let multi else { return }
        inbox.withLock { box in
            guard !box.exited else { return }
            box.commands.append(.cancel(transfer))
            if box.commands.count == 1 { curl_multi_wakeup(multi) }
        }
    }

    /// Stops taking transfers, lets those in flight run until `gracePeriod` has passed, fails the
    /// rest with `shutDown`, and returns once the thread has ended and every handle is cleaned up.
    func shutdown(gracePeriod: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyExited = inbox.withLock { box in
                guard !box.exited else { return true }
                beginShutdown(&box, deadline: .now + gracePeriod)
                box.exitWaiters.append(continuation)
                return false
            }
            if alreadyExited { continuation.resume() }
        }
    }

    /// Starts a shutdown without waiting for it (from the transport's `deinit`).
    func shutdownWithoutWaiting() {
        inbox.withLock { box in
            guard !box.exited else { return }
            beginShutdown(&box, deadline: .now)
        }
    }

    private func beginShutdown(_ box: inout Inbox, deadline: ContinuousClock.Instant) {
        box.accepting = false
        box.shutdownDeadline = min(box.shutdownDeadline ?? deadline, deadline)
        if let multi { curl_multi_wakeup(multi) }
    }
}

// MARK: - The curl thread

extension CurlMultiLoop {
    private func run() {
        guard let multi else { return }
        ThreadNaming.nameCurrentThread(threadName)
        CurlMultiLoop.blockAsynchronousSignals()
        var pending: [Command] = []
        while true {
            let deadline = inbox.withLock { box in
                swap(&pending, &box.commands)
                return box.shutdownDeadline
            }
            for command in pending {
                switch command {
                case .add(let transfer): engine.start(transfer)
                case .cancel(let transfer): engine.cancel(transfer)
                }
            }
            pending.removeAll(keepingCapacity: true)
            engine.cancelRequestedTransfers()
            if let deadline, engine.isIdle || ContinuousClock.now >= deadline { break }

            var active: Int32 = 0
            curl_multi_perform(multi, &active)
            engine.collectFinished()

            var waitMilliseconds: Int32 = 1000
            if let deadline {
                if engine.isIdle { continue }
                waitMilliseconds = Int32(min(1000, (deadline - .now).curlMilliseconds))
            }
            var readyDescriptors: Int32 = 0
            curl_multi_poll(multi, nil, 0, waitMilliseconds, &readyDescriptors)
        }
        tearDown(multi)
    }

    /// Fails what is left, cleans every handle up, and wakes whoever waits in `shutdown`.
    private func tearDown(_ multi: UnsafeMutableRawPointer) {
        engine.failRunning()
        let (leftovers, waiters) = inbox.withLock { box in
            box.exited = true
            defer {
                box.commands = []
                box.exitWaiters = []
            }
            return (box.commands, box.exitWaiters)
        }
        for case .add(let transfer) in leftovers {
            engine.failShutDown(transfer, inFlight: false)
        }
        engine.tearDown()
        for waiter in waiters { waiter.resume() }
    }

    /// Worker threads leave process signals to the process's signal handling, and a write to a
    /// closed socket must not raise `SIGPIPE` (`CURLOPT_NOSIGNAL` stops libcurl from ignoring it).
    private static func blockAsynchronousSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD] {
            sigaddset(&set, signal)
        }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
