import CCurl
import EventLoops
import Glibc
import ServiceCore

/// Drives one libcurl multi handle on a caller's ``EventLoops/IOEventLoop`` (an HTTP server's
/// network thread) with `curl_multi_socket_action`: libcurl's sockets and its timer are watched
/// by that loop, so a request sent from a handler on that thread is written, read and finished
/// there, and its caller resumes on the same thread without a wake-up or a lock.
///
/// Created on the loop's thread and touched only there (``IOEventLoop``'s contract): `loop` is
/// `Sendable` and immutable, the rest is loop-thread state. That is why `@unchecked Sendable` is
/// safe here.
final class CurlLoopDriver: IOEventLoopMember, @unchecked Sendable {
    /// The loop this driver lives on.
    let loop: any IOEventLoop
    private let engine: CurlMultiEngine
    private var timer: IOTimerID?
    /// What the loop watches each of libcurl's sockets for.
    private var watched: [Int32: IOInterest] = [:]
    /// Watched sockets libcurl no longer asked about (an idle connection in its cache): they stay
    /// in the loop's epoll, so a connection reused for the next transfer costs no `epoll_ctl`
    /// pair; the first event on one that is still parked removes it.
    private var parked: Set<Int32> = []
    private var accepting = true
    private var closed = false
    private var shutdownTimer: IOTimerID?
    private var shutdownWaiters: [CheckedContinuation<Void, Never>] = []
    private let onClose: @Sendable () -> Void

    /// Creates the driver on `loop`'s thread (the caller's); `nil` when libcurl has no multi handle.
    /// - Parameter onClose: Called once, on the loop's thread, when the driver has closed.
    init?(loop: any IOEventLoop, configuration: CurlTransport.Configuration, onClose: @escaping @Sendable () -> Void) {
        self.loop = loop
        self.onClose = onClose
        engine = CurlMultiEngine(configuration: configuration)
        guard let multi = engine.multi else { return nil }
        let context = Unmanaged.passUnretained(self).toOpaque()
        swifty_curl_multi_setopt_socket_callback(multi, CurlLoopDriver.socketCallback)
        swifty_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        swifty_curl_multi_setopt_timer_callback(multi, CurlLoopDriver.timerCallback)
        swifty_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
        // Every socket closes through the driver, so a parked one is forgotten before its number
        // can be reused.
        engine.socketCloser = CurlSocketCloser(callback: CurlLoopDriver.closeSocketCallback, context: context)
        // In-flight transfers end with the loop. Weak: a driver closed earlier (its transport shut
        // down) is freed; only this small closure stays with the loop.
        loop.whenStopping { [weak self] in self?.close() }
    }

    /// Starts a transfer (loop thread); it is finished with `shutDown` after a shutdown.
    func submit(_ transfer: CurlTransfer) {
        guard accepting, !closed else {
            engine.failShutDown(transfer, inFlight: false)
            return
        }
        // libcurl asks for its timer at 0 ms: the transfer is sent on the loop's next turn,
        // together with every other request its handlers submitted in this one, so an upstream
        // on the same core wakes once for the batch rather than once per request.
        engine.start(transfer)
        closeIfDrained()
    }

    /// Stops a transfer if it is still running (loop thread).
    func cancel(_ transfer: CurlTransfer) {
        guard !closed else { return }
        engine.cancel(transfer)
        closeIfDrained()
    }

    /// Stops taking transfers; those in flight may run until `deadline`, then fail with
    /// `shutDown`; `waiter` resumes once the multi handle is cleaned up (loop thread).
    func shutdown(deadline: ContinuousClock.Instant, waiter: CheckedContinuation<Void, Never>?) {
        guard !closed else {
            waiter?.resume()
            return
        }
        if let waiter { shutdownWaiters.append(waiter) }
        accepting = false
        if let shutdownTimer { loop.cancelTimer(shutdownTimer) }
        shutdownTimer = loop.schedule(at: deadline) { [self] in
            shutdownTimer = nil
            close()
        }
        closeIfDrained()
    }

    private func closeIfDrained() {
        if !accepting, engine.isIdle { close() }
    }

    /// Fails what is in flight, cleans libcurl up, stops every watch and timer (loop thread).
    private func close() {
        guard !closed else { return }
        closed = true
        accepting = false
        engine.tearDown()
        for descriptor in watched.keys { loop.unwatch(descriptor) }
        watched = [:]
        parked = []
        if let timer { loop.cancelTimer(timer) }
        if let shutdownTimer { loop.cancelTimer(shutdownTimer) }
        timer = nil
        shutdownTimer = nil
        let waiters = shutdownWaiters
        shutdownWaiters = []
        for waiter in waiters { waiter.resume() }
        onClose()
    }

    /// Lets libcurl act on one socket (or on its timer) and finishes what completed.
    private func socketAction(_ descriptor: curl_socket_t, _ flags: Int32) {
        guard !closed, let multi = engine.multi else { return }
        var running: Int32 = 0
        curl_multi_socket_action(multi, descriptor, flags, &running)
        engine.collectFinished()
        closeIfDrained()
    }

    private func socketReady(_ descriptor: Int32, _ readiness: IOReadiness) {
        if parked.contains(descriptor) {
            // An idle connection got data or was closed by its peer: libcurl finds out when it
            // next looks at the connection; until then the loop stops watching it.
            forget(descriptor)
            return
        }
        var flags: Int32 = 0
        if readiness.contains(.readable) { flags |= CURL_CSELECT_IN }
        if readiness.contains(.writable) { flags |= CURL_CSELECT_OUT }
        if readiness.contains(.error) { flags |= CURL_CSELECT_ERR }
        socketAction(descriptor, flags)
    }

    /// libcurl asks to watch `descriptor` for `what`, or to stop watching it.
    private func update(_ descriptor: Int32, _ what: Int32) {
        guard what != CURL_POLL_REMOVE else {
            // Parked rather than removed: libcurl removes a connection's socket after each
            // transfer and adds it back for the next one on the same connection.
            if watched[descriptor] != nil { parked.insert(descriptor) }
            return
        }
        var interest: IOInterest = []
        if what == CURL_POLL_IN || what == CURL_POLL_INOUT { interest.insert(.readable) }
        if what == CURL_POLL_OUT || what == CURL_POLL_INOUT { interest.insert(.writable) }
        parked.remove(descriptor)
        if watched[descriptor] == interest { return }
        let watching = loop.watch(descriptor, for: interest) { [self] readiness in
            socketReady(descriptor, readiness)
        }
        if watching {
            watched[descriptor] = interest
        } else {
            // Not watchable: let libcurl find out on its next look at the socket.
            forget(descriptor)
            schedule(milliseconds: 0)
        }
    }

    /// Stops watching a socket, parked or not.
    private func forget(_ descriptor: Int32) {
        loop.unwatch(descriptor)
        watched[descriptor] = nil
        parked.remove(descriptor)
    }

    /// libcurl is closing one of its sockets: it leaves the loop's epoll first, so a later socket
    /// with the same number starts unwatched.
    fileprivate func socketClosing(_ descriptor: Int32) {
        if watched[descriptor] != nil { forget(descriptor) }
    }

    /// libcurl asks to be called back after `milliseconds`, or (-1) no longer.
    private func schedule(milliseconds: Int) {
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        guard milliseconds >= 0, !closed else { return }
        timer = loop.schedule(at: .now + .milliseconds(milliseconds)) { [self] in
            timer = nil
            socketAction(CURL_SOCKET_TIMEOUT, 0)
        }
    }
}

// MARK: - C callbacks

extension CurlLoopDriver {
    /// `CURLMOPT_SOCKETFUNCTION`.
    static let socketCallback: curl_socket_callback = { _, descriptor, what, context, _ in
        guard let context else { return -1 }
        Unmanaged<CurlLoopDriver>.fromOpaque(context).takeUnretainedValue().update(descriptor, what)
        return 0
    }

    /// `CURLOPT_CLOSESOCKETFUNCTION` of the driver's handles: forgets the socket, then closes it.
    static let closeSocketCallback: curl_closesocket_callback = { context, descriptor in
        if let context {
            Unmanaged<CurlLoopDriver>.fromOpaque(context).takeUnretainedValue().socketClosing(descriptor)
        }
        return Glibc.close(descriptor)
    }

    /// `CURLMOPT_TIMERFUNCTION`.
    static let timerCallback: curl_multi_timer_callback = { _, milliseconds, context in
        guard let context else { return -1 }
        Unmanaged<CurlLoopDriver>.fromOpaque(context).takeUnretainedValue().schedule(milliseconds: milliseconds)
        return 0
    }
}
