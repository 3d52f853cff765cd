import CCurl
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
    private let multi: UnsafeMutableRawPointer?
    private let configuration: CurlTransport.Configuration
    /// `swifty.curl.<n>`: the thread's name (at most 15 bytes, Linux's limit), unique among the
    /// last thousand transports, so tests and `top -H` can tell the threads apart.
    let threadName: String

    private static let instances = Atomic<Int>(0)

    // Curl thread only.
    private var running: [ObjectIdentifier: CurlTransfer] = [:]
    private var idleHandles: [CurlEasyHandle] = []

    /// Creates the multi handle and starts the thread that drives it.
    init(configuration: CurlTransport.Configuration) {
        self.configuration = configuration
        threadName = "swifty.curl.\(CurlMultiLoop.instances.add(1, ordering: .relaxed).newValue % 1000)"
        multi = CurlGlobal.isInitialized ? curl_multi_init() : nil
        guard let multi else {
            inbox.withLock { $0.exited = true }
            return
        }
        swifty_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(1, configuration.maxCachedConnections))
        swifty_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(0, configuration.maxConnectionsPerHost))
        swifty_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, max(0, configuration.maxTotalConnections))
        swifty_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        let thread = Thread { [self] in run() }
        thread.name = threadName
        thread.start()
    }

    /// Hands a transfer to the curl thread. Returns the error to throw when it cannot be taken.
    func submit(_ transfer: CurlTransfer) -> TransportError? {
        guard let multi else {
            return TransportError(.other, "libcurl could not be initialised, so \(transfer.summary) was not sent")
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
        CurlMultiLoop.nameCurrentThread(threadName)
        CurlMultiLoop.blockAsynchronousSignals()
        var pending: [Command] = []
        while true {
            let deadline = inbox.withLock { box in
                swap(&pending, &box.commands)
                return box.shutdownDeadline
            }
            for command in pending {
                switch command {
                case .add(let transfer): start(transfer)
                case .cancel(let transfer): stop(transfer)
                }
            }
            pending.removeAll(keepingCapacity: true)
            if let deadline, running.isEmpty || ContinuousClock.now >= deadline { break }

            var active: Int32 = 0
            curl_multi_perform(multi, &active)
            collectFinished(multi)

            var waitMilliseconds: Int32 = 1000
            if let deadline {
                if running.isEmpty { continue }
                waitMilliseconds = Int32(min(1000, (deadline - .now).curlMilliseconds))
            }
            var readyDescriptors: Int32 = 0
            curl_multi_poll(multi, nil, 0, waitMilliseconds, &readyDescriptors)
        }
        tearDown(multi)
    }

    /// Fails what is left, cleans every handle up, and wakes whoever waits in `shutdown`.
    private func tearDown(_ multi: UnsafeMutableRawPointer) {
        for transfer in Array(running.values) {
            complete(transfer, with: .failure(shutDownError(transfer, inFlight: true)))
        }
        let (leftovers, waiters) = inbox.withLock { box in
            box.exited = true
            defer {
                box.commands = []
                box.exitWaiters = []
            }
            return (box.commands, box.exitWaiters)
        }
        for case .add(let transfer) in leftovers {
            complete(transfer, with: .failure(shutDownError(transfer, inFlight: false)))
        }
        idleHandles.removeAll()
        curl_multi_cleanup(multi)
        for waiter in waiters { waiter.resume() }
    }

    private func shutDownError(_ transfer: CurlTransfer, inFlight: Bool) -> TransportError {
        TransportError(
            .shutDown,
            inFlight
                ? "the transport was shut down while \(transfer.summary) was in flight"
                : "the transport was shut down before \(transfer.summary) was sent"
        )
    }

    private func start(_ transfer: CurlTransfer) {
        guard transfer.state == .queued else { return }
        if transfer.cancelRequested.load(ordering: .acquiring) {
            complete(transfer, with: .failure(TransportError(.cancelled, "\(transfer.summary) was cancelled")))
            return
        }
        guard let multi, let easy = idleHandles.popLast() ?? CurlEasyHandle() else {
            complete(transfer, with: .failure(TransportError(.other, "libcurl could not create a handle")))
            return
        }
        easy.prepare(for: transfer, configuration: configuration)
        let code = curl_multi_add_handle(multi, easy.raw)
        guard code == CURLM_OK else {
            recycle(easy)
            let reason = String(cString: curl_multi_strerror(code))
            complete(transfer, with: .failure(TransportError(.other, "\(transfer.summary) not started: \(reason)")))
            return
        }
        transfer.easy = easy
        transfer.state = .running
        running[ObjectIdentifier(transfer)] = transfer
    }

    private func stop(_ transfer: CurlTransfer) {
        guard transfer.state == .running else { return }
        complete(transfer, with: .failure(TransportError(.cancelled, "\(transfer.summary) was cancelled")))
    }

    private func collectFinished(_ multi: UnsafeMutableRawPointer) {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            var context: UnsafeMutableRawPointer?
            swifty_curl_easy_getinfo_pointer(handle, CURLINFO_PRIVATE, &context)
            guard let context else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            guard let easy = transfer.easy else { continue }
            let code = message.pointee.data.result
            if code == CURLE_OK {
                var status = 0
                swifty_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
                if status != 0 { transfer.status = status }
                complete(transfer, with: .success(transfer.takeResponse()))
            } else {
                complete(transfer, with: .failure(transfer.error(for: code, detail: easy.errorMessage)))
            }
        }
    }

    /// Detaches the transfer from libcurl, returns its handle to the pool, and resumes its caller.
    /// The state check makes the resume happen exactly once.
    private func complete(_ transfer: CurlTransfer, with result: Result<HTTPResponse, TransportError>) {
        guard transfer.state != .finished else { return }
        if let easy = transfer.easy, let multi {
            curl_multi_remove_handle(multi, easy.raw)
            transfer.easy = nil
            recycle(easy)
        }
        running[ObjectIdentifier(transfer)] = nil
        transfer.state = .finished
        let continuation = transfer.continuation
        transfer.continuation = nil
        continuation?.resume(with: result)
    }

    private func recycle(_ easy: CurlEasyHandle) {
        easy.reset()
        if idleHandles.count < configuration.maxIdleHandles { idleHandles.append(easy) }
    }

    /// Names the calling thread for `top -H`, debuggers and tests. Foundation's `Thread.name` reaches
    /// the OS only when the new thread happens to run after its creator has finished `start()`, so
    /// the name is also written to `/proc/thread-self/comm` (Linux; at most 15 bytes).
    private static func nameCurrentThread(_ name: String) {
        Thread.current.name = name
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        _ = name.withCString { write(descriptor, $0, min(15, strlen($0))) }
        close(descriptor)
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
