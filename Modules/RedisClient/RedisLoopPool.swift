import CEpoll
import CHiredis
import Dispatch
import EventLoops
import Glibc

/// The connections of a ``RedisClient`` on one event loop, the calls waiting for them, and their
/// timers, all driven by that loop's thread.
///
/// Calls share connections: a call is appended to the output of the open connection with the
/// fewest commands in flight, written at the end of the loop's turn with every other call placed
/// meanwhile, without waiting for earlier replies; Redis answers in order, so each connection
/// hands its replies to its calls strictly first to last. A connection carries at most
/// ``RedisConfiguration/maximumPipelinedCommandsPerConnection`` commands (a larger pipeline
/// alone); a call that finds no room waits (at most ``RedisConfiguration/maximumWaitersPerLoop``
/// calls) while a connection is opened (at most ``RedisConfiguration/maximumConnectionsPerLoop``)
/// or replies come in. A call that times out or is cancelled leaves its connection as it is: its
/// replies are read and dropped when they come. A blocking command (`BLPOP`, ...) gets a
/// connection of its own. A failed connection fails every call on it; a failed connection
/// attempt starts a backoff; calls that find no open connection during it fail at once, and the
/// first call after it tries again. The backoff is the client's (``RedisReconnectState``): an
/// attempt that fails on one loop starts it for all, a connection that opens on one ends it for
/// all.
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
    /// The connections open for calls, in the order they opened.
    private var openConnections: [RedisConnection] = []
    /// The calls not finished, by deadline, and the one timer set for the earliest.
    private var deadlines = RedisDeadlines()
    private var timer: IOTimerID?
    private var timerDeadline: ContinuousClock.Instant = .now
    /// Connections with calls to write at the end of the turn.
    private var toFlush: [RedisConnection] = []
    private var flushing: [RedisConnection] = []
    /// Calls waiting for a connection, oldest first.
    private var waiters = FIFOQueue<RedisRequest>()
    /// Failed connection attempts and when the next may start, shared with the client's other
    /// loops.
    private let reconnect: RedisReconnectState
    /// The address of the endpoint's host name, kept for a minute, and whether a lookup runs.
    private var resolvedAddress: (address: String, expires: ContinuousClock.Instant)?
    private var resolving = false
    private var closed = false
    private let onClose: @Sendable () -> Void

    /// Creates the pool on `loop`'s thread (the caller's).
    init(
        loop: any IOEventLoop,
        configuration: RedisConfiguration,
        reconnect: RedisReconnectState,
        onClose: @escaping @Sendable () -> Void
    ) {
        self.loop = loop
        self.configuration = configuration
        self.reconnect = reconnect
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

    private var waiterCount: Int { waiters.count }

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
        deadlines.insert(request)
        if deadlines.earliest === request { armTimer() }
        // Behind earlier waiters, so that calls keep their order.
        if waiterCount == 0, place(request) { return }
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

    /// Puts a call on the open connection with the fewest commands in flight that has room for
    /// it (any connection with none in flight has, whatever the call's size); `false` when none
    /// has.
    ///
    /// Spreading by the fewest in flight keeps a slow command from holding up more calls than
    /// needed. A further connection is opened only when even the least loaded one carries
    /// ``Self/growthThreshold`` commands or more: below that, sharing a round trip costs the
    /// callers nothing measurable, and fewer connections mean fewer, larger reads and writes on
    /// both sides (Redis runs every connection on one thread).
    private func place(_ request: RedisRequest) -> Bool {
        let limit = max(1, configuration.maximumPipelinedCommandsPerConnection)
        var best: RedisConnection?
        for connection in openConnections where !connection.exclusive {
            if request.exclusive, connection.pendingReplies > 0 { continue }
            let load = connection.pendingReplies
            guard load == 0 || load + request.replyCount <= limit else { continue }
            if let chosen = best, chosen.pendingReplies <= load { continue }
            best = connection
            if load == 0 { break }
        }
        guard let connection = best else { return false }
        if connection.pendingReplies >= Self.growthThreshold, !request.exclusive { grow() }
        connection.exclusive = request.exclusive
        request.connection = connection
        connection.enqueue(request)
        if !connection.flushQueued, connection.watched != [.readable, .writable] {
            // Written at the end of the loop's turn, with every call placed meanwhile: one
            // system call for all of them.
            connection.flushQueued = true
            toFlush.append(connection)
            if toFlush.count == 1 { _ = loop.execute { [weak self] in self?.flush() } }
        }
        return true
    }

    /// Writes the connections that were given calls since the last flush.
    private func flush() {
        // The two arrays trade places, so neither is copied and both keep their capacity.
        swap(&toFlush, &flushing)
        for connection in flushing {
            connection.flushQueued = false
            if connection.state == .open, connection.hasOutput { write(connection) }
        }
        flushing.removeAll(keepingCapacity: true)
    }

    /// The commands one connection carries before another is opened (when the bound allows).
    static let growthThreshold = 16

    /// Opens one more connection when the bound allows and none is being opened.
    private func grow() {
        guard connections.count < max(1, configuration.maximumConnectionsPerLoop), opening == 0 else { return }
        _ = open()
    }

    private var opening: Int { connections.values.count { $0.state == .connecting || $0.state == .handshaking } }

    /// Places the waiting calls, oldest first, while connections have room.
    private func placeWaiters() {
        while let waiter = waiters.first, place(waiter) {
            _ = waiters.popFirst()
        }
        if waiterCount > 0 { replenish() }
    }

    /// Sets the pool's one timer to the earliest deadline, unless it is already set no later.
    /// A timer left set for a call that finished early fires for nothing and is set again.
    private func armTimer() {
        guard let deadline = deadlines.earliest?.deadline else { return }
        if let timer {
            if timerDeadline <= deadline { return }
            loop.cancelTimer(timer)
        }
        timerDeadline = deadline
        timer = loop.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.timer = nil
            self.expireCalls()
        }
    }

    /// Fails the calls whose deadline has passed, earliest first, then sets the timer again.
    private func expireCalls() {
        let now = ContinuousClock.now
        while let request = deadlines.earliest, request.deadline <= now {
            deadlines.remove(request)
            timedOut(request)
        }
        armTimer()
    }

    /// Fails a call whose task was cancelled (loop thread).
    func cancel(_ request: RedisRequest) {
        abandon(request, RedisError(.cancelled, "\(request.summary) was cancelled"))
    }

    /// A call's timeout passed. When it is the oldest on its connection and nothing came back on
    /// that connection since it was written, Redis is not answering there: the connection is
    /// given up (every call on it fails and another is opened), else a dead peer would keep
    /// every later call waiting.
    private func timedOut(_ request: RedisRequest) {
        let error = RedisError(.timedOut, "\(request.summary) had no reply within \(request.timeout)")
        if let connection = request.connection, connection.oldest === request,
            connection.repliesReceived == request.repliesMark, !connection.exclusive
        {
            fail(connection, error) { call in
                call === request
                    ? error
                    : RedisError(
                        .timedOut,
                        "\(call.summary): no reply on its connection within \(request.timeout); the connection was replaced"
                    )
            }
            replenish()
            return
        }
        abandon(request, error)
    }

    /// Fails a call. On a shared connection its replies are read and dropped when they come, so
    /// the others' stay in step; a blocking call's connection is closed (nothing else is on it,
    /// and closing ends the command); a waiting call leaves the queue.
    private func abandon(_ request: RedisRequest, _ error: RedisError) {
        guard request.continuation != nil else { return }
        if let connection = request.connection {
            if connection.exclusive {
                finish(request, with: .failure(error))
                close(connection)
                replenish()
                return
            }
        } else {
            _ = waiters.removeFirst { $0 === request }
        }
        finish(request, with: .failure(error))
    }

    /// Resumes the caller once.
    private func finish(_ request: RedisRequest, with result: Result<[RedisValue], RedisError>) {
        guard let continuation = request.continuation else { return }
        request.continuation = nil
        deadlines.remove(request)
        switch result {
        case .success(let replies): continuation.resume(returning: replies)
        case .failure(let error): continuation.resume(throwing: error)
        }
    }

    private func failWaiters(_ error: RedisError) {
        while let request = waiters.popFirst() {
            finish(
                request,
                with: .failure(
                    RedisError(
                        error.code, "\(request.summary): \(error.message)",
                        serverMessage: error.serverMessage)))
        }
    }

    // MARK: - Connections

    /// Opens connections for the waiting calls, up to the bound: one per
    /// ``RedisConfiguration/maximumPipelinedCommandsPerConnection`` waiting calls.
    private func replenish() {
        guard !closed, waiterCount > 0 else { return }
        let perConnection = max(1, configuration.maximumPipelinedCommandsPerConnection)
        var needed = (waiterCount + perConnection - 1) / perConnection - opening
        while needed > 0, connections.count < max(1, configuration.maximumConnectionsPerLoop) {
            guard open() else { return }
            needed -= 1
        }
    }

    /// Starts a connection; `false` when none could be started (backoff, or a failure that
    /// already failed the waiting calls).
    private func open() -> Bool {
        if let backoff = reconnect.waiting(at: .now) {
            if connections.isEmpty {
                let failure = backoff.failure
                failWaiters(
                    RedisError(
                        failure.code, "\(failure.message) (next attempt in \(backoff.wait))",
                        serverMessage: failure.serverMessage))
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
        reconnect.failed(error, at: .now)
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
        connection.handshakeExpected = handshake.replies
        connection.output = handshake.bytes
        connection.written = 0
        write(connection)
    }

    /// Checks the replies to `AUTH` and `SELECT`.
    private func handshakeDone(_ connection: RedisConnection) {
        for (index, reply) in connection.handshakeReplies.enumerated() {
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
        connection.handshakeReplies = []
        ready(connection)
    }

    private func ready(_ connection: RedisConnection) {
        if let timer = connection.connectTimer { loop.cancelTimer(timer) }
        connection.connectTimer = nil
        reconnect.succeeded()
        connection.state = .open
        connection.output = []
        connection.written = 0
        // The handshake's bytes are not counted: offsets are those of the calls' commands.
        connection.totalWritten = 0
        openConnections.append(connection)
        watch(connection, for: .readable)
        placeWaiters()
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
        case .handshaking, .open:
            if readiness.contains(.writable), connection.hasOutput { write(connection) }
            if connection.state != .closed, readiness.contains(.readable) || readiness.contains(.error) {
                read(connection)
            }
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
                connection.totalWritten += sent
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
        connection.output.removeAll(keepingCapacity: connection.output.count <= 64 << 10)
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
                    try takeReplies(connection)
                } catch {
                    broken(connection, error)
                    return
                }
                if connection.state != .open && connection.state != .handshaking { return }
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

    /// Hands the replies read so far to the calls in order; a call whose caller has gone
    /// (timed out, cancelled) has them dropped.
    private func takeReplies(_ connection: RedisConnection) throws(RedisError) {
        var completedAny = false
        while let reply = try connection.reader.next() {
            if connection.state == .handshaking {
                connection.handshakeReplies.append(reply)
                connection.handshakeExpected -= 1
                if connection.handshakeExpected == 0 {
                    if try connection.reader.next() != nil {
                        throw RedisError(.protocolError, "Redis sent more replies than commands")
                    }
                    handshakeDone(connection)
                    return
                }
                continue
            }
            // A reply nobody asked for would be taken for the next call's: drop the connection.
            guard let request = connection.oldest else {
                throw RedisError(.protocolError, "Redis sent more replies than commands")
            }
            connection.repliesReceived += 1
            request.received += 1
            if request.continuation != nil { request.replies.append(reply) }
            guard request.received == request.replyCount else { continue }
            if request.endOffset > connection.totalWritten {
                throw RedisError(.protocolError, "Redis answered before the command was sent")
            }
            connection.removeOldest()
            if connection.callCount == 0 { connection.exclusive = false }
            completedAny = true
            request.connection = nil
            let replies = request.replies
            request.replies = []
            finish(request, with: .success(replies))
        }
        if completedAny, waiterCount > 0 { placeWaiters() }
    }

    /// What Redis sent could not be read: the connection is dropped and its calls failed.
    private func broken(_ connection: RedisConnection, _ error: RedisError) {
        if connection.state == .handshaking {
            connectFailed(connection, error)
            return
        }
        fail(connection, error) { RedisError(error.code, "\($0.summary): \(error.message)") }
        replenish()
    }

    /// The connection failed or closed: its calls fail with `connectionClosed` (they may have run).
    private func lost(_ connection: RedisConnection, _ message: String) {
        if connection.state == .handshaking || connection.state == .connecting {
            connectFailed(
                connection, RedisError(.connectionFailed, "connecting to \(configuration.endpoint): \(message)"))
            return
        }
        fail(connection, RedisError(.connectionClosed, message)) {
            RedisError(.connectionClosed, "\($0.summary): \(message)")
        }
        replenish()
    }

    /// Closes a connection and fails every call still waiting on it with `error(call)`.
    private func fail(
        _ connection: RedisConnection, _ cause: RedisError, _ error: (RedisRequest) -> RedisError
    ) {
        let calls = connection.takeAll()
        close(connection)
        for call in calls {
            call.connection = nil
            call.replies = []
            finish(call, with: .failure(error(call)))
        }
    }

    private func close(_ connection: RedisConnection) {
        if connection.state == .closed { return }
        if connection.state == .open { openConnections.removeAll { $0 === connection } }
        if let timer = connection.connectTimer { loop.cancelTimer(timer) }
        connection.connectTimer = nil
        if connection.watched != nil { loop.unwatch(connection.descriptor) }
        connection.watched = nil
        connection.state = .closed
        connections[connection.descriptor] = nil
        Glibc.close(connection.descriptor)
        for call in connection.takeAll() {
            call.connection = nil
            // Closed under a call still waiting (a blocking call given up is finished first).
            finish(call, with: .failure(RedisError(.connectionClosed, "\(call.summary): its connection was closed")))
        }
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
            fail(connection, RedisError(.shutDown, "the client shut down")) {
                RedisError(.shutDown, "the client shut down during \($0.summary)")
            }
        }
        failWaiters(RedisError(.shutDown, "the client shut down while the call waited for a connection"))
        waiters = FIFOQueue()
        openConnections = []
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        onClose()
    }
}
