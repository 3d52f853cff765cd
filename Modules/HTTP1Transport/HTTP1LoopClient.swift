import CEpoll
import CHTTPParser
import Dispatch
import EventLoops
import Glibc
import HTTP1Parsing
import HTTPTypes
import ServiceCore

/// The fast path on one ``EventLoops/IOEventLoop``: its keep-alive connections, the requests on
/// them, and the timers of those requests, all driven by the loop's own thread.
///
/// A request sent from a handler on that thread is written, read and finished there; its caller
/// resumes on the same thread. An idle connection stays watched for reading, so reusing it costs
/// no `epoll_ctl`, and a peer that closes it while idle is noticed and the connection dropped.
///
/// Created on the loop's thread and touched only there (``IOEventLoop``'s contract): `loop` is
/// `Sendable` and immutable, the rest is loop-thread state, and the parser settings and read
/// buffer are C memory only this thread uses. That is why `@unchecked Sendable` is safe here.
final class HTTP1LoopClient: IOEventLoopMember, @unchecked Sendable {
    /// The loop this client lives on.
    let loop: any IOEventLoop
    private let configuration: HTTP1Transport.Configuration
    private let settings: UnsafeMutablePointer<http_parser_settings>
    /// Where every read lands before the parser copies what it keeps.
    private let readBuffer: UnsafeMutableRawPointer
    private static let readBufferSize = 64 << 10
    /// Every open connection, by descriptor.
    private var connections: [Int32: HTTP1Connection] = [:]
    /// The idle ones by origin, the most recently used last.
    private var idle: [HTTP1Target.Origin: [HTTP1Connection]] = [:]
    /// Requests submitted and not yet finished.
    private var inFlight = 0
    private let resolver: any HTTP1Resolver
    /// Addresses of host names, kept for `addressLifetime`.
    private var addresses: [String: (address: String, expires: ContinuousClock.Instant)] = [:]
    /// Requests waiting for their host's address, by host.
    private var resolving: [String: [HTTP1Exchange]] = [:]
    /// Their deadlines, served by one loop timer.
    private var deadlines = HTTP1Deadlines()
    /// That timer and when it fires.
    private var deadlineTimer: (id: IOTimerID, at: ContinuousClock.Instant)?
    /// Reused connections whose request waits for the end of the loop's turn.
    private var pendingWrites: [HTTP1Connection] = []
    private var flushScheduled = false
    private var accepting = true
    private var closed = false
    private var shutdownTimer: IOTimerID?
    private var shutdownWaiters: [CheckedContinuation<Void, Never>] = []
    private let onClose: @Sendable () -> Void

    /// Creates the client on `loop`'s thread (the caller's).
    /// - Parameter onClose: Called once, on the loop's thread, when the client has closed.
    init(
        loop: any IOEventLoop, configuration: HTTP1Transport.Configuration, resolver: any HTTP1Resolver,
        onClose: @escaping @Sendable () -> Void
    ) {
        self.loop = loop
        self.configuration = configuration
        self.resolver = resolver
        self.onClose = onClose
        settings = HTTP1ResponseParser.makeSettings()
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        // In-flight requests end with the loop. Weak: a client closed earlier is freed.
        loop.whenStopping { [weak self] in self?.close() }
    }

    deinit {
        settings.deinitialize(count: 1)
        settings.deallocate()
        readBuffer.deallocate()
    }

    // MARK: - Requests

    /// Starts a request (loop thread); it fails with `shutDown` after a shutdown.
    func submit(_ exchange: HTTP1Exchange) {
        guard accepting, !closed else {
            refuse(exchange)
            return
        }
        inFlight += 1
        deadlines.add(exchange)
        armDeadlineTimer(at: exchange.deadline)
        if let connection = takeIdle(exchange.target.origin) {
            attach(exchange, to: connection)
            // Sent when the loop next fires its timers (before it goes on with queued work), with
            // every other request submitted meanwhile: an upstream on the same core then wakes
            // once for the batch.
            pendingWrites.append(connection)
            if !flushScheduled {
                flushScheduled = true
                _ = loop.schedule(at: .now) { [weak self] in self?.flushWrites() }
            }
        } else {
            open(exchange)
        }
    }

    /// Fails a request whose task was cancelled, and closes its connection (loop thread).
    func cancel(_ exchange: HTTP1Exchange) {
        fail(exchange, TransportError(.cancelled, "\(exchange.summary) was cancelled"))
    }

    private func refuse(_ exchange: HTTP1Exchange) {
        let continuation = exchange.continuation
        exchange.continuation = nil
        continuation?.resume(
            throwing: TransportError(.shutDown, "the transport was shut down before \(exchange.summary)"))
    }

    private func flushWrites() {
        flushScheduled = false
        var batch: [HTTP1Connection] = []
        swap(&batch, &pendingWrites)
        // A connection closed meanwhile (its request cancelled or timed out) is skipped by `write`.
        for connection in batch { write(connection) }
    }

    /// Makes the deadline timer fire at `instant` unless it already fires earlier.
    private func armDeadlineTimer(at instant: ContinuousClock.Instant) {
        if let armed = deadlineTimer {
            if armed.at <= instant { return }
            loop.cancelTimer(armed.id)
        }
        let id = loop.schedule(at: instant) { [weak self] in self?.deadlinesDue() }
        deadlineTimer = (id, instant)
    }

    private func deadlinesDue() {
        deadlineTimer = nil
        for exchange in deadlines.takeDue(now: .now) { timedOut(exchange) }
        if let next = deadlines.earliest() { armDeadlineTimer(at: next) }
    }

    private func timedOut(_ exchange: HTTP1Exchange) {
        fail(exchange, TransportError(.timedOut, "\(exchange.summary) timed out after \(exchange.timeout)"))
    }

    /// Closes the request's connection, if it has one, and fails it; nothing happens to a
    /// request that has finished (it no longer has a connection).
    private func fail(_ exchange: HTTP1Exchange, _ error: TransportError) {
        if let connection = exchange.connection { close(connection) }
        finish(exchange, with: .failure(error))
    }

    private func shutDownError(_ exchange: HTTP1Exchange) -> TransportError {
        TransportError(.shutDown, "the transport shut down during \(exchange.summary)")
    }

    /// Resumes the caller once, and forgets the request.
    private func finish(_ exchange: HTTP1Exchange, with result: Result<HTTPResponse, TransportError>) {
        guard let continuation = exchange.continuation else { return }
        exchange.continuation = nil
        exchange.connection = nil
        exchange.bytes = []
        deadlines.trim(exchange.timeout)
        inFlight -= 1
        switch result {
        case .success(let response): continuation.resume(returning: response)
        case .failure(let error): continuation.resume(throwing: error)
        }
        if !accepting, inFlight == 0 { close() }
    }

    // MARK: - Connections

    /// The most recently used idle connection to `origin`, unless it has been idle longer than
    /// `maxIdleTime`: then it and every older one below it are closed (a peer or a middlebox may
    /// have dropped them without a word), and a new connection is opened.
    private func takeIdle(_ origin: HTTP1Target.Origin) -> HTTP1Connection? {
        guard let connection = idle[origin]?.popLast() else { return nil }
        if ContinuousClock.now - connection.idleSince <= configuration.maxIdleTime { return connection }
        let stale = [connection] + (idle.removeValue(forKey: origin) ?? [])
        for old in stale { close(old) }
        return nil
    }

    private func attach(_ exchange: HTTP1Exchange, to connection: HTTP1Connection) {
        connection.exchange = exchange
        exchange.connection = connection
        connection.beginResponse()
        connection.state = .writing(offset: 0)
    }

    /// Opens a connection for `exchange` (resolving its host first if it is a name) and sends it
    /// there once connected.
    private func open(_ exchange: HTTP1Exchange) {
        let origin = exchange.target.origin
        if origin.isNumeric {
            connect(exchange, to: origin.host)
            return
        }
        if let known = addresses[origin.host], ContinuousClock.now < known.expires {
            connect(exchange, to: known.address)
            return
        }
        // One lookup per name at a time, on a thread of its own: `getaddrinfo` blocks.
        resolving[origin.host, default: []].append(exchange)
        guard resolving[origin.host]?.count == 1 else { return }
        let host = origin.host
        let resolver = self.resolver
        DispatchQueue.global().async { [self] in
            let result = Result { try resolver.address(for: host) }
            _ = loop.execute { self.resolved(host, result) }
        }
    }

    /// Connects the requests that waited for `host`'s address, or fails them (loop thread).
    private func resolved(_ host: String, _ result: Result<String, any Error>) {
        guard !closed else { return }
        let waiting = resolving.removeValue(forKey: host) ?? []
        switch result {
        case .success(let address):
            addresses[host] = (address, ContinuousClock.now + configuration.addressLifetime)
            for exchange in waiting where !exchange.isFinished { connect(exchange, to: address) }
        case .failure(let error):
            let message = (error as? TransportError)?.message ?? "the name '\(host)' did not resolve: \(error)"
            for exchange in waiting where !exchange.isFinished {
                finish(exchange, with: .failure(TransportError(.connectionFailed, "\(exchange.summary): \(message)")))
            }
        }
    }

    /// Opens a connection to the numeric `address` for `exchange`.
    private func connect(_ exchange: HTTP1Exchange, to address: String) {
        let origin = exchange.target.origin
        var error: Int32 = 0
        let descriptor = address.withCString { swifty_connect_tcp($0, origin.port, &error) }
        guard descriptor >= 0 else {
            finish(exchange, with: .failure(connectFailure(exchange, error)))
            return
        }
        let connection = HTTP1Connection(
            descriptor: descriptor, origin: origin, maxBodySize: configuration.maxResponseBodySize,
            maxHeadSize: configuration.maxResponseHeadSize)
        connections[descriptor] = connection
        attach(exchange, to: connection)
        guard error == EINPROGRESS else {
            write(connection)
            return
        }
        connection.state = .connecting
        let connectDeadline = ContinuousClock.now + configuration.connectTimeout
        if connectDeadline < exchange.deadline {
            connection.connectTimer = loop.schedule(at: connectDeadline) { [weak self, weak connection] in
                guard let self, let connection else { return }
                connection.connectTimer = nil
                self.connectTimedOut(connection)
            }
        }
        watch(connection, for: .writable)
    }

    private func connectFailure(_ exchange: HTTP1Exchange, _ error: Int32) -> TransportError {
        TransportError(.connectionFailed, "\(exchange.summary): could not connect: \(String(cString: strerror(error)))")
    }

    private func connectTimedOut(_ connection: HTTP1Connection) {
        guard let exchange = connection.exchange else { return }
        fail(
            exchange,
            TransportError(.timedOut, "\(exchange.summary): no connection within \(configuration.connectTimeout)"))
    }

    private func watch(_ connection: HTTP1Connection, for interest: IOInterest) {
        guard connection.watched != interest else { return }
        let descriptor = connection.descriptor
        if loop.watch(
            descriptor, for: interest, handler: { [weak self] readiness in self?.ready(descriptor, readiness) })
        {
            connection.watched = interest
        } else {
            connection.watched = nil
            lost(connection, "the event loop refused to watch its socket")
        }
    }

    private func ready(_ descriptor: Int32, _ readiness: IOReadiness) {
        guard let connection = connections[descriptor] else { return }
        switch connection.state {
        case .connecting: connected(connection)
        case .writing: write(connection)
        case .reading: read(connection)
        case .idle:
            // Nothing was asked: the peer closed it (or sent what it should not). Drop it.
            close(connection)
        case .closed: break
        }
    }

    private func connected(_ connection: HTTP1Connection) {
        if let timer = connection.connectTimer { loop.cancelTimer(timer) }
        connection.connectTimer = nil
        let error = swifty_socket_error(connection.descriptor)
        guard error == 0 else {
            if let exchange = connection.exchange { fail(exchange, connectFailure(exchange, error)) }
            return
        }
        connection.state = .writing(offset: 0)
        write(connection)
    }

    private func write(_ connection: HTTP1Connection) {
        guard case .writing(var offset) = connection.state, let exchange = connection.exchange else { return }
        let total = exchange.bytes.count
        while offset < total {
            let sent = exchange.bytes.withUnsafeBytes { bytes in
                Glibc.send(connection.descriptor, bytes.baseAddress! + offset, total - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
                continue
            }
            let error = errno
            if sent < 0, error == EINTR { continue }
            if sent < 0, error == EAGAIN || error == EWOULDBLOCK {
                connection.state = .writing(offset: offset)
                watch(connection, for: .writable)
                return
            }
            lost(connection, "the connection failed while sending: \(String(cString: strerror(error)))")
            return
        }
        connection.state = .reading
        watch(connection, for: .readable)
    }

    private func read(_ connection: HTTP1Connection) {
        guard let exchange = connection.exchange else {
            close(connection)
            return
        }
        let descriptor = connection.descriptor
        // At most 16 reads (1 MiB) per turn, so one large answer does not hold up the loop.
        for _ in 0..<16 {
            let count = recv(descriptor, readBuffer, Self.readBufferSize, 0)
            if count > 0 {
                connection.received += count
                let bytes = readBuffer.assumingMemoryBound(to: CChar.self)
                let outcome = HTTP1ResponseParser.feed(connection, bytes, count: count, settings: settings)
                if conclude(connection, exchange, outcome) || count < Self.readBufferSize { return }
                continue
            }
            if count == 0 {
                if connection.received == 0 {
                    lost(connection, "the connection closed before any answer")
                    return
                }
                // The end of the stream ends a body that runs until the connection closes; any
                // other answer it cuts short is a closed connection, not a malformed answer.
                let outcome = HTTP1ResponseParser.feed(connection, nil, count: 0, settings: settings)
                if case .complete = outcome, conclude(connection, exchange, outcome) { return }
                fail(
                    exchange,
                    TransportError(
                        .connectionClosed,
                        "\(exchange.summary): the connection closed after \(connection.received) bytes of the answer"))
                return
            }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return }
            lost(connection, "the connection failed while reading: \(String(cString: strerror(error)))")
            return
        }
    }

    /// Acts on what the parser found; `true` when the request is finished.
    private func conclude(
        _ connection: HTTP1Connection, _ exchange: HTTP1Exchange, _ outcome: HTTP1ResponseParser.Outcome
    ) -> Bool {
        let failure: TransportError
        switch outcome {
        case .needMore:
            return false
        case .complete(let leftover):
            let reusable = leftover == 0 && connection.parser.shouldKeepAlive
            let response = connection.takeResponse()
            connection.exchange = nil
            connection.hasAnswered = true
            if reusable { release(connection) } else { close(connection) }
            finish(exchange, with: .success(response))
            return true
        case .malformed(let detail):
            failure = TransportError(.other, "\(exchange.summary): the answer is not valid HTTP/1.1 (\(detail))")
        case .bodyTooLarge:
            failure = TransportError(
                .responseTooLarge,
                "\(exchange.summary): the answer's body is over \(configuration.maxResponseBodySize) bytes")
        case .headTooLarge:
            failure = TransportError(
                .other, "\(exchange.summary): the answer's head is over \(configuration.maxResponseHeadSize) bytes")
        }
        fail(exchange, failure)
        return true
    }

    /// A connection failed or closed before its answer: the request fails with
    /// `connectionClosed`. It is never sent again here: whether it may be (and signed afresh) is
    /// the caller's retry policy, which knows the case's retry class. A reused connection the
    /// peer closed before any byte of the answer says so in the message.
    private func lost(_ connection: HTTP1Connection, _ message: String) {
        let exchange = connection.exchange
        let reusedAndUnanswered = connection.hasAnswered && connection.received == 0
        close(connection)
        guard let exchange else { return }
        exchange.connection = nil
        let detail =
            reusedAndUnanswered
            ? "the reused connection was closed by the peer before any byte of the answer (\(message))" : message
        finish(exchange, with: .failure(TransportError(.connectionClosed, "\(exchange.summary): \(detail)")))
    }

    /// Puts a connection whose answer is complete back in the pool (still watched for reading).
    private func release(_ connection: HTTP1Connection) {
        guard accepting, idle[connection.origin, default: []].count < configuration.maxIdleConnectionsPerHost,
            connection.watched == .readable
        else {
            close(connection)
            return
        }
        connection.state = .idle
        connection.idleSince = .now
        idle[connection.origin, default: []].append(connection)
    }

    private func close(_ connection: HTTP1Connection) {
        if case .closed = connection.state { return }
        if case .idle = connection.state { idle[connection.origin]?.removeAll { $0 === connection } }
        if let timer = connection.connectTimer { loop.cancelTimer(timer) }
        connection.connectTimer = nil
        if connection.watched != nil { loop.unwatch(connection.descriptor) }
        connection.watched = nil
        connection.state = .closed
        connections[connection.descriptor] = nil
        Glibc.close(connection.descriptor)
        connection.exchange = nil
    }

    // MARK: - Shutdown

    /// Stops taking requests (loop thread): idle connections close now, requests in flight may
    /// finish until `deadline` and then fail with `shutDown`; `waiter` is resumed once all is closed.
    func shutdown(deadline: ContinuousClock.Instant, waiter: CheckedContinuation<Void, Never>?) {
        if let waiter {
            guard !closed else {
                waiter.resume()
                return
            }
            shutdownWaiters.append(waiter)
        }
        guard accepting else { return }
        accepting = false
        for connection in idle.values.flatMap({ $0 }) { close(connection) }
        if inFlight == 0 {
            close()
        } else {
            shutdownTimer = loop.schedule(at: deadline) { [weak self] in self?.close() }
        }
    }

    /// Fails every request still in flight with `shutDown`, closes every connection, and
    /// reports the client closed (loop thread; again, it does nothing).
    func close() {
        guard !closed else { return }
        closed = true
        accepting = false
        if let timer = shutdownTimer { loop.cancelTimer(timer) }
        shutdownTimer = nil
        if let armed = deadlineTimer { loop.cancelTimer(armed.id) }
        deadlineTimer = nil
        for connection in Array(connections.values) {
            if let exchange = connection.exchange {
                fail(exchange, shutDownError(exchange))
            } else {
                close(connection)
            }
        }
        for exchange in resolving.values.joined() { fail(exchange, shutDownError(exchange)) }
        resolving = [:]
        idle = [:]
        deadlines.removeAll()
        let waiters = shutdownWaiters
        shutdownWaiters = []
        for waiter in waiters { waiter.resume() }
        onClose()
    }
}
