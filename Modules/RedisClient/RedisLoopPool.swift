import CEpoll
import CHiredis
import Dispatch
import EventLoops
import Glibc

/// The connections of a ``RedisClient`` on one event loop, the calls waiting for them, and their
/// timers, all driven by that loop's thread.
///
/// A call takes an idle connection, or waits (at most ``RedisConfiguration/maximumWaitersPerLoop``
/// calls) while a new one is opened (at most ``RedisConfiguration/maximumConnectionsPerLoop``) or
/// a busy one finishes. A connection carries one call at a time (a command or a pipeline), so a
/// call that times out closes only its own connection. A failed connection attempt starts a
/// backoff; calls that find no open connection during it fail at once, and the first call after
/// it tries again.
///
/// Created on the loop's thread and touched only there (``IOEventLoop``'s contract); the read
/// buffer is C memory only this thread uses. That is why `@unchecked Sendable` is safe here.
final class RedisLoopPool: IOEventLoopMember, @unchecked Sendable {
    /// The loop this pool lives on.
    let loop: any IOEventLoop
    private let configuration: RedisConfiguration
    /// `AUTH` and `SELECT`, encoded once, and how many replies answer them.
    private let handshake: (bytes: [UInt8], replies: Int, auth: Bool)
    private let readBuffer: UnsafeMutableRawPointer
    private static let readBufferSize = 64 << 10
    private var connections: [Int32: RedisConnection] = [:]
    private var idle: [RedisConnection] = []
    /// Calls waiting for a connection, oldest first from `waitersHead`.
    private var waiters: [RedisRequest] = []
    private var waitersHead = 0
    /// Failed connection attempts in a row, and when the next may start.
    private var failures = 0
    private var retryAt: ContinuousClock.Instant?
    private var lastFailure: RedisError?
    /// The address of the endpoint's host name, kept for a minute, and whether a lookup runs.
    private var resolvedAddress: (address: String, expires: ContinuousClock.Instant)?
    private var resolving = false
    private var closed = false
    private let onClose: @Sendable () -> Void

    /// Creates the pool on `loop`'s thread (the caller's).
    init(loop: any IOEventLoop, configuration: RedisConfiguration, onClose: @escaping @Sendable () -> Void) {
        self.loop = loop
        self.configuration = configuration
        self.onClose = onClose
        handshake = Self.encodeHandshake(configuration)
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        // Calls in flight end with the loop. Weak: a pool closed earlier is freed.
        loop.whenStopping { [weak self] in self?.close() }
    }

    deinit {
        readBuffer.deallocate()
    }

    private static func encodeHandshake(_ configuration: RedisConfiguration) -> ([UInt8], Int, Bool) {
        var bytes: [UInt8] = []
        var replies = 0
        if let credentials = configuration.credentials {
            var auth: [RedisArgument] = ["AUTH"]
            if let username = credentials.username { auth.append(RedisArgument(username)) }
            auth.append(RedisArgument(credentials.password))
            RedisCommandEncoder.append(auth, to: &bytes)
            replies += 1
        }
        if configuration.database != 0 {
            RedisCommandEncoder.append(["SELECT", RedisArgument(configuration.database)], to: &bytes)
            replies += 1
        }
        return (bytes, replies, configuration.credentials != nil)
    }

    // MARK: - Calls

    private var waiterCount: Int { waiters.count - waitersHead }

    /// Starts a call (loop thread); it fails with `shutDown` after a shutdown.
    func submit(_ request: RedisRequest) {
        guard !closed else {
            finish(request, with: .failure(RedisError(.shutDown, "the client was shut down before \(request.summary)")))
            return
        }
        guard !request.cancelledBeforeSubmission else {
            finish(
                request, with: .failure(RedisError(.cancelled, "\(request.summary) was cancelled before it was sent")))
            return
        }
        request.pool = self
        request.deadline = .now + request.timeout
        request.timer = loop.schedule(at: request.deadline) { [weak self, weak request] in
            guard let self, let request else { return }
            request.timer = nil
            self.fail(request, RedisError(.timedOut, "\(request.summary) had no reply within \(request.timeout)"))
        }
        if let connection = idle.popLast() {
            start(request, on: connection)
            return
        }
        guard waiterCount < max(1, configuration.maximumWaitersPerLoop) else {
            finish(
                request,
                with: .failure(
                    RedisError(
                        .poolExhausted,
                        "\(request.summary): \(configuration.maximumWaitersPerLoop) calls already wait for a connection"
                    )
                ))
            return
        }
        waiters.append(request)
        replenish()
    }

    /// Fails a call whose task was cancelled (loop thread).
    func cancel(_ request: RedisRequest) {
        fail(request, RedisError(.cancelled, "\(request.summary) was cancelled"))
    }

    /// Fails a call: its connection, if it has one, is closed (its reply would come later and
    /// must not be read as another call's); a waiting call leaves the queue.
    private func fail(_ request: RedisRequest, _ error: RedisError) {
        guard request.continuation != nil else { return }
        if let connection = request.connection {
            connection.request = nil
            close(connection)
        } else if let index = waiters[waitersHead...].firstIndex(where: { $0 === request }) {
            waiters.remove(at: index)
        }
        finish(request, with: .failure(error))
        replenish()
    }

    /// Resumes the caller once.
    private func finish(_ request: RedisRequest, with result: Result<[RedisValue], RedisError>) {
        guard let continuation = request.continuation else { return }
        request.continuation = nil
        request.connection = nil
        if let timer = request.timer { loop.cancelTimer(timer) }
        request.timer = nil
        switch result {
        case .success(let replies): continuation.resume(returning: replies)
        case .failure(let error): continuation.resume(throwing: error)
        }
    }

    private func takeWaiter() -> RedisRequest? {
        guard waitersHead < waiters.count else { return nil }
        let request = waiters[waitersHead]
        waitersHead += 1
        if waitersHead > 64, waitersHead * 2 > waiters.count {
            waiters.removeFirst(waitersHead)
            waitersHead = 0
        }
        return request
    }

    private func failWaiters(_ error: RedisError) {
        while let request = takeWaiter() {
            finish(
                request,
                with: .failure(
                    RedisError(
                        error.code, "\(request.summary): \(error.message)",
                        serverMessage: error.serverMessage)))
        }
    }

    private func start(_ request: RedisRequest, on connection: RedisConnection) {
        connection.request = request
        request.connection = connection
        connection.state = .busy
        connection.begin(request.bytes, replies: request.replyCount)
        write(connection)
    }

    // MARK: - Connections

    /// Opens connections for waiting calls, up to the bound.
    private func replenish() {
        guard !closed else { return }
        let opening = connections.values.count { $0.state == .connecting || $0.state == .handshaking }
        var needed = waiterCount - opening
        while needed > 0, connections.count < max(1, configuration.maximumConnectionsPerLoop) {
            guard open() else { return }
            needed -= 1
        }
    }

    /// Starts a connection; `false` when none could be started (backoff, or a failure that
    /// already failed the waiting calls).
    private func open() -> Bool {
        if let retryAt, ContinuousClock.now < retryAt {
            if connections.isEmpty, let lastFailure {
                let wait = ContinuousClock.now.duration(to: retryAt)
                failWaiters(
                    RedisError(
                        lastFailure.code, "\(lastFailure.message) (next attempt in \(wait))",
                        serverMessage: lastFailure.serverMessage))
            }
            return false
        }
        var error: Int32 = 0
        var descriptor: Int32
        switch configuration.endpoint {
        case .tcp(let host, let port):
            guard (0...65535).contains(port) else {
                connectFailed(nil, RedisError(.invalidArgument, "the port \(port) is out of range"))
                return false
            }
            descriptor = host.withCString { swifty_connect_tcp($0, UInt16(port), &error) }
            if descriptor < 0, error == EAFNOSUPPORT {
                // A host name: connect to its address, looked up first when not known.
                guard let resolvedAddress, ContinuousClock.now < resolvedAddress.expires else {
                    resolve(host)
                    return false
                }
                descriptor = resolvedAddress.address.withCString {
                    swifty_connect_tcp($0, UInt16(port), &error)
                }
            }
        case .unixSocket(let path):
            descriptor = path.withCString { swifty_connect_unix($0, &error) }
        }
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(error))
            connectFailed(
                nil, RedisError(.connectionFailed, "could not connect to \(configuration.endpoint): \(reason)"))
            return false
        }
        guard let reader = RedisReplyReader() else {
            Glibc.close(descriptor)
            connectFailed(nil, RedisError(.connectionFailed, "hiredis could not allocate a reply reader"))
            return false
        }
        let connection = RedisConnection(descriptor: descriptor, reader: reader)
        connections[descriptor] = connection
        connection.connectTimer = loop.schedule(at: .now + configuration.connectTimeout) {
            [weak self, weak connection] in
            guard let self, let connection else { return }
            connection.connectTimer = nil
            self.connectFailed(
                connection,
                RedisError(
                    .connectionFailed,
                    "no connection to \(self.configuration.endpoint) within \(self.configuration.connectTimeout)"))
        }
        if error == 0 {
            connected(connection)
        } else {
            watch(connection, for: .writable)
        }
        return true
    }

    /// Looks up `host` on a thread of its own (`getaddrinfo` blocks), then opens connections for
    /// the calls waiting meanwhile, or fails them as a failed connection attempt.
    private func resolve(_ host: String) {
        guard !resolving else { return }
        resolving = true
        let loop = self.loop
        DispatchQueue.global().async { [weak self] in
            var buffer = [CChar](repeating: 0, count: 64)
            let status = host.withCString { swifty_redis_resolve($0, &buffer, socklen_t(buffer.count)) }
            let result: Result<String, RedisError> =
                status == 0
                ? .success(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                : .failure(
                    RedisError(
                        .connectionFailed,
                        "the name '\(host)' did not resolve: \(String(cString: gai_strerror(status)))"))
            let pool = self
            loop.execute { pool?.resolved(result) }
        }
    }

    private func resolved(_ result: Result<String, RedisError>) {
        resolving = false
        guard !closed else { return }
        switch result {
        case .success(let address):
            resolvedAddress = (address, .now + .seconds(60))
            replenish()
        case .failure(let error):
            connectFailed(nil, error)
        }
    }

    /// A connection attempt failed: the backoff grows, and when no connection is left the
    /// waiting calls fail now rather than wait for their timeout.
    private func connectFailed(_ connection: RedisConnection?, _ error: RedisError) {
        if let connection { close(connection) }
        failures += 1
        retryAt = .now + configuration.reconnectBackoff.delay(afterFailures: failures)
        lastFailure = error
        if connections.isEmpty { failWaiters(error) }
    }

    private func connected(_ connection: RedisConnection) {
        let error = swifty_socket_error(connection.descriptor)
        guard error == 0 else {
            connectFailed(
                connection,
                RedisError(
                    .connectionFailed,
                    "could not connect to \(configuration.endpoint): \(String(cString: strerror(error)))"))
            return
        }
        guard handshake.replies > 0 else {
            ready(connection)
            return
        }
        connection.state = .handshaking
        connection.begin(handshake.bytes, replies: handshake.replies)
        write(connection)
    }

    /// Checks the replies to `AUTH` and `SELECT`.
    private func handshakeDone(_ connection: RedisConnection) {
        for (index, reply) in connection.replies.enumerated() {
            guard case .error(let message) = reply else { continue }
            let isAuth = handshake.auth && index == 0
            let error =
                isAuth
                ? RedisError(
                    .authenticationFailed,
                    "Redis at \(configuration.endpoint) refused the credentials (\(configuration.credentials?.description ?? "none")): \(message)",
                    serverMessage: message)
                : RedisError(
                    .connectionFailed, "SELECT \(configuration.database) failed: \(message)", serverMessage: message)
            connectFailed(connection, error)
            return
        }
        ready(connection)
    }

    private func ready(_ connection: RedisConnection) {
        if let timer = connection.connectTimer { loop.cancelTimer(timer) }
        connection.connectTimer = nil
        failures = 0
        retryAt = nil
        lastFailure = nil
        release(connection)
    }

    /// Gives a connection to the oldest waiting call, or puts it in the pool.
    private func release(_ connection: RedisConnection) {
        if let request = takeWaiter() {
            start(request, on: connection)
            return
        }
        connection.state = .idle
        idle.append(connection)
        watch(connection, for: .readable)
    }

    private func watch(_ connection: RedisConnection, for interest: IOInterest) {
        guard connection.watched != interest else { return }
        let descriptor = connection.descriptor
        if loop.watch(
            descriptor, for: interest, handler: { [weak self] readiness in self?.handle(descriptor, readiness) })
        {
            connection.watched = interest
        } else {
            connection.watched = nil
            lost(connection, "the event loop refused to watch its socket")
        }
    }

    private func handle(_ descriptor: Int32, _ readiness: IOReadiness) {
        guard let connection = connections[descriptor] else { return }
        switch connection.state {
        case .connecting:
            connected(connection)
        case .handshaking, .busy:
            if readiness.contains(.writable), connection.hasOutput { write(connection) }
            if connection.state != .closed, readiness.contains(.readable) || readiness.contains(.error) {
                read(connection)
            }
        case .idle:
            // Nothing was asked: Redis closed it (or sent what it should not). Drop it.
            close(connection)
        case .closed:
            break
        }
    }

    private func write(_ connection: RedisConnection) {
        let total = connection.output.count
        while connection.written < total {
            let sent = connection.output.withUnsafeBytes { bytes in
                Glibc.send(
                    connection.descriptor, bytes.baseAddress! + connection.written, total - connection.written,
                    Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                connection.written += sent
                continue
            }
            let error = errno
            if sent < 0, error == EINTR { continue }
            if sent < 0, error == EAGAIN || error == EWOULDBLOCK {
                // Replies are read while the rest waits, so a long pipeline never stalls on
                // both sides' full buffers.
                watch(connection, for: [.readable, .writable])
                return
            }
            lost(connection, "sending failed: \(String(cString: strerror(error)))")
            return
        }
        connection.output = []
        connection.written = 0
        watch(connection, for: .readable)
    }

    private func read(_ connection: RedisConnection) {
        // At most 16 reads (1 MiB) per turn, so one large reply does not hold up the loop.
        for _ in 0..<16 {
            let count = recv(connection.descriptor, readBuffer, Self.readBufferSize, 0)
            if count > 0 {
                do throws(RedisError) {
                    try connection.reader.feed(readBuffer, count: count)
                    while connection.expected > 0, let reply = try connection.reader.next() {
                        connection.replies.append(reply)
                        connection.expected -= 1
                    }
                    // A reply nobody asked for would be taken for the next call's: drop the connection.
                    if connection.expected == 0, try connection.reader.next() != nil {
                        throw RedisError(.protocolError, "Redis sent more replies than commands")
                    }
                } catch {
                    broken(connection, error)
                    return
                }
                if connection.expected == 0 {
                    if connection.hasOutput {
                        broken(connection, RedisError(.protocolError, "Redis answered before the command was sent"))
                    } else {
                        completed(connection)
                    }
                    return
                }
                if count < Self.readBufferSize { return }
                continue
            }
            if count == 0 {
                lost(connection, "Redis closed the connection")
                return
            }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return }
            lost(connection, "reading failed: \(String(cString: strerror(error)))")
            return
        }
    }

    private func completed(_ connection: RedisConnection) {
        switch connection.state {
        case .handshaking:
            handshakeDone(connection)
        case .busy:
            let replies = connection.replies
            connection.replies = []
            let request = connection.request
            connection.request = nil
            request?.connection = nil
            release(connection)
            if let request { finish(request, with: .success(replies)) }
        default:
            close(connection)
        }
    }

    /// What Redis sent could not be read: the connection is dropped and its call failed.
    private func broken(_ connection: RedisConnection, _ error: RedisError) {
        if connection.state == .handshaking {
            connectFailed(connection, error)
            return
        }
        let request = connection.request
        close(connection)
        if let request {
            finish(request, with: .failure(RedisError(error.code, "\(request.summary): \(error.message)")))
        }
        replenish()
    }

    /// The connection failed or closed: its call fails with `connectionClosed` (it may have run).
    private func lost(_ connection: RedisConnection, _ message: String) {
        if connection.state == .handshaking || connection.state == .connecting {
            connectFailed(
                connection, RedisError(.connectionFailed, "connecting to \(configuration.endpoint): \(message)"))
            return
        }
        let request = connection.request
        close(connection)
        if let request {
            finish(request, with: .failure(RedisError(.connectionClosed, "\(request.summary): \(message)")))
        }
        replenish()
    }

    private func close(_ connection: RedisConnection) {
        if connection.state == .closed { return }
        if connection.state == .idle { idle.removeAll { $0 === connection } }
        if let timer = connection.connectTimer { loop.cancelTimer(timer) }
        connection.connectTimer = nil
        if connection.watched != nil { loop.unwatch(connection.descriptor) }
        connection.watched = nil
        connection.state = .closed
        connections[connection.descriptor] = nil
        Glibc.close(connection.descriptor)
        connection.request?.connection = nil
        connection.request = nil
    }

    // MARK: - Shutdown

    /// Stops the pool (loop thread): calls in flight or waiting fail with `shutDown`; `waiter`
    /// is resumed once everything is closed. The client shuts down without a grace period, so
    /// `deadline` is not waited for.
    func shutdown(deadline: ContinuousClock.Instant, waiter: CheckedContinuation<Void, Never>?) {
        close()
        waiter?.resume()
    }

    /// Fails every call with `shutDown`, closes every connection and reports the pool closed
    /// (loop thread; again, it does nothing).
    func close() {
        guard !closed else { return }
        closed = true
        for connection in Array(connections.values) {
            let request = connection.request
            close(connection)
            if let request {
                finish(request, with: .failure(RedisError(.shutDown, "the client shut down during \(request.summary)")))
            }
        }
        failWaiters(RedisError(.shutDown, "the client shut down while the call waited for a connection"))
        waiters = []
        waitersHead = 0
        idle = []
        onClose()
    }
}
