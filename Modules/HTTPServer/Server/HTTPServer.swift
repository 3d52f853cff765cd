public import AppLogging
import Dispatch
public import EventLoops
import Foundation
import Glibc
import HTTPTypes
import Synchronization

/// An HTTP/1.1 server whose handlers are Swift `async` functions.
///
/// Connections are accepted and served on the loops of an `EventLoopGroup`, handed in (shared
/// with the transports its handlers call, so an upstream call stays on the handler's thread) or
/// made for itself (``Configuration/threadCount`` loops). Requests are parsed by http-parser in
/// strict mode and checked against the framing rules of RFC 9112 and the limits and deadlines of
/// ``Configuration``: a request the server refuses gets exactly one answer (a problem body) and
/// its connection closes. Each accepted request is handed to the handler in a task whose
/// preferred executor is the connection's loop, so the handler's async hops come back to the same
/// thread; a handler that does not really wait answers before the loop turns again.
/// Connections are kept alive between requests, pipelined requests are answered in order, and a
/// client that goes away while its request is handled cancels the handler's task.
/// Handlers must not block their thread: run blocking work elsewhere and await it.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 8080)) { request in
///     .json(200, data: Data(#"{"ok":true}"#.utf8))
/// }
/// try server.start()
/// // ...
/// await server.shutdown(gracePeriod: .seconds(5))
/// ```
public final class HTTPServer: Sendable {
    /// The running parts: the server's part of each loop, the shared listening socket.
    private struct Running: Sendable {
        var loops: [ServerLoop]
        var listenSocket: Int32
        var port: Int
        /// The group the server made for itself (stopped with it), or `nil` for a handed-in one.
        var ownGroup: EventLoopGroup?
    }

    /// Where the server is in its life.
    private enum Lifecycle {
        case idle
        case running(Running)
        case stopping(port: Int)
        case stopped
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    /// The loops the server runs on when they were handed in; `nil` when it makes its own
    /// (``Configuration/threadCount`` of them) at ``start()``.
    public let eventLoops: EventLoopGroup?
    private let core: ServerCore
    private let lifecycle = Mutex(Lifecycle.idle)

    /// Creates a server that runs on `eventLoops`; it listens only once ``start()`` is called.
    ///
    /// Every loop of the group serves connections (``Configuration/threadCount`` is not used).
    /// The group is not stopped with the server: its owner stops it once the server, and the
    /// transports that share it, have stopped.
    /// - Parameters:
    ///   - configuration: Address, port and limits; defaults bind 127.0.0.1 on an ephemeral port.
    ///   - eventLoops: The loops the server's connections and handlers run on.
    ///   - logger: Where server errors go (never request bodies or credentials).
    ///   - refusalObserver: Told, on a network thread, of every request or connection the server
    ///     refuses itself (framing, limits, deadlines), so its owner can count and log them like
    ///     requests; it must not block.
    ///   - handler: Answers one request; called concurrently from many tasks.
    public init(
        configuration: Configuration = Configuration(),
        eventLoops: EventLoopGroup?,
        logger: Logger = Logger(label: "swifty.http-server"),
        refusalObserver: (@Sendable (RefusedRequest) -> Void)? = nil,
        handler: @escaping @Sendable (ServerRequest) async -> ServerResponse
    ) {
        self.configuration = configuration
        self.eventLoops = eventLoops
        self.core = ServerCore(
            configuration: configuration, logger: logger, refusalObserver: refusalObserver, handler: handler)
    }

    /// Creates a server that makes its own loops (``Configuration/threadCount`` of them, threads
    /// named `http-N`) when it starts and stops them with itself: for a server that shares its
    /// threads with nothing else.
    /// - Parameters:
    ///   - configuration: Address, port, thread count and limits.
    ///   - logger: Where server errors go (never request bodies or credentials).
    ///   - handler: Answers one request; called concurrently from many tasks.
    public convenience init(
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "swifty.http-server"),
        handler: @escaping @Sendable (ServerRequest) async -> ServerResponse
    ) {
        self.init(configuration: configuration, eventLoops: nil, logger: logger, handler: handler)
    }

    /// Creates a server that answers through `router`.
    /// - Parameters:
    ///   - configuration: Address, port and limits.
    ///   - eventLoops: The loops to run on, or `nil` to make its own at ``start()``.
    ///   - logger: Where server errors go.
    ///   - router: The routes; unknown paths get 404, known paths with another method 405.
    public convenience init(
        configuration: Configuration = Configuration(),
        eventLoops: EventLoopGroup? = nil,
        logger: Logger = Logger(label: "swifty.http-server"),
        router: Router
    ) {
        self.init(configuration: configuration, eventLoops: eventLoops, logger: logger, handler: router.handle)
    }

    deinit {
        // A server dropped without shutdown stops at once: unfinished requests get 503 if their
        // connection can still take it, and every connection closes.
        let running: Running? = lifecycle.withLock { state in
            guard case .running(let running) = state else { return nil }
            state = .stopped
            return running
        }
        guard let running else { return }
        let core = self.core
        if running.loops.contains(where: \.loop.isCurrent) {
            // Dropped on one of its own network threads: that thread cannot wait for itself.
            Thread { Self.stopNow(running, core: core) }.start()
        } else {
            Self.stopNow(running, core: core)
        }
    }

    /// Binds the configured address and starts serving.
    ///
    /// - Throws: ``HTTPServerError`` with `.invalidConfiguration` for a bad configuration,
    ///   `.startFailed` when the address cannot be bound (or the loops cannot be made),
    ///   `.invalidState` when already started.
    public func start() throws(HTTPServerError) {
        try configuration.validate()
        try lifecycle.withLock { (state: inout Lifecycle) throws(HTTPServerError) in
            guard case .idle = state else {
                throw HTTPServerError(code: .invalidState, message: "start() may be called once, on a new server.")
            }
            guard let address = SocketAddress(host: configuration.host, port: UInt16(configuration.port)) else {
                throw HTTPServerError(code: .invalidConfiguration, message: "host is not a numeric address")
            }
            let (listenSocket, port) = try ListenSocket.open(address, backlog: configuration.listenBacklog)
            var running = Running(loops: [], listenSocket: listenSocket, port: port, ownGroup: nil)
            let group: EventLoopGroup
            if let eventLoops {
                group = eventLoops
            } else {
                do {
                    group = try EventLoopGroup(loopCount: configuration.threadCount, name: "http")
                } catch {
                    Self.stopNow(running, core: core)
                    throw HTTPServerError(code: .startFailed, message: "the network threads: \(error)")
                }
                running.ownGroup = group
            }
            for loop in group.loops {
                let serverLoop = ServerLoop(loop: loop, core: core, listener: listenSocket)
                running.loops.append(serverLoop)
                // Accepting starts on the loop's thread; connections wait in the backlog until then.
                loop.execute {
                    if !serverLoop.start() {
                        serverLoop.core.logger.error("a loop could not watch the listening socket")
                    }
                }
            }
            state = .running(running)
        }
    }

    /// The bound TCP port (the ephemeral one when the configuration said 0), or 0 when not running.
    public var port: Int {
        lifecycle.withLock { state in
            switch state {
            case .running(let running): running.port
            case .stopping(let port): port
            case .idle, .stopped: 0
            }
        }
    }

    /// Whether the server accepts new connections.
    public var isRunning: Bool {
        lifecycle.withLock { state in
            if case .running = state { return true }
            return false
        }
    }

    /// Runs `body` on one of the server's network threads, as a request handler runs.
    ///
    /// Work that belongs with the server's requests (warming a connection pool of a transport
    /// that shares the handler's event loop, say) runs there without a thread hand-off.
    /// - Parameters:
    ///   - index: Which network thread, from 0; taken modulo the thread count.
    ///   - body: The work; its async hops come back to that thread.
    /// - Throws: ``HTTPServerError`` with code `invalidState` when the server is not running, or
    ///   what `body` throws.
    public func onNetworkThread<T: Sendable>(
        _ index: Int = 0,
        _ body: @Sendable () async throws -> T
    ) async throws -> T {
        let loop = lifecycle.withLock { state -> EventLoop? in
            guard case .running(let running) = state, !running.loops.isEmpty else { return nil }
            return running.loops[abs(index) % running.loops.count].loop
        }
        guard let loop else {
            throw HTTPServerError(
                code: .invalidState, message: "the server is not running, so it has no network thread")
        }
        return try await withTaskExecutorPreference(loop) { try await body() }
    }

    /// The requests handed to the handler that have not been answered yet (for readiness and draining).
    public var inFlightCount: Int { core.inFlight.load(ordering: .relaxed) }

    /// Connections open right now, on every loop.
    public var connectionCount: Int { core.connections.load(ordering: .relaxed) }

    /// Requests and connections the server has refused itself so far (framing, limits, deadlines).
    public var refusalCount: Int { core.refusals.load(ordering: .relaxed) }

    /// Connections refused at accept so far because a connection limit was reached.
    public var refusedConnectionCount: Int { core.refusedConnections.load(ordering: .relaxed) }

    /// Connection objects alive right now (for leak tests).
    var liveConnections: Int { core.liveConnections.load(ordering: .relaxed) }

    /// Handler tasks running or parked right now (for tests of their reuse).
    var liveHandlerTasks: Int { core.liveWorkers.load(ordering: .relaxed) }

    /// Stops accepting connections, finishes what was received for up to `gracePeriod`, then stops.
    ///
    /// New connections are refused at once; requests already received, and requests that arrive
    /// on kept-alive connections meanwhile, are answered with `Connection: close`; connections
    /// between requests are closed once no request is in progress. Requests whose handler has not
    /// answered when the grace period ends get 503. Calling it again, or on a server never
    /// started, returns at once.
    /// - Parameter gracePeriod: How long in-flight requests may still take.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        let running: Running? = lifecycle.withLock { state in
            guard case .running(let running) = state else { return nil }
            state = .stopping(port: running.port)
            return running
        }
        guard let running else { return }
        // Off the network threads: waiting for them below must not run on one of them.
        await withTaskExecutorPreference(globalConcurrentExecutor) {
            await drainAndStop(running, gracePeriod: gracePeriod)
        }
        lifecycle.withLock { $0 = .stopped }
    }

    private func drainAndStop(_ running: Running, gracePeriod: Duration) async {
        core.draining.store(true, ordering: .relaxed)
        _ = await Self.onEveryLoop(running) { $0.stopAccepting() }
        // Every loop has stopped watching it: new connections are refused from here on.
        _ = Glibc.close(running.listenSocket)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: gracePeriod)
        while clock.now < deadline {
            let busy = await Self.onEveryLoop(running) { $0.busyCount }.reduce(0, +)
            if busy == 0 && core.inFlight.load(ordering: .relaxed) == 0 { break }
            try? await Task.sleep(for: .milliseconds(5))
        }
        core.stopped.store(true, ordering: .relaxed)
        let abandoned = await Self.onEveryLoop(running) {
            $0.answerUnfinished(
                with: .problem(
                    ProblemDetails(
                        status: 503, detail: "The server shut down before the handler answered.", code: "shutting_down")
                ))
        }.reduce(0, +)
        if abandoned > 0 {
            core.logger.warning("shutdown answered unfinished requests with 503", metadata: ["count": "\(abandoned)"])
        }
        // Give the answers just queued a moment to be written, then close everything.
        let flushDeadline = clock.now.advanced(by: .milliseconds(200))
        while clock.now < flushDeadline {
            let open = await Self.onEveryLoop(running) { serverLoop -> Int in
                serverLoop.closeFinished()
                return serverLoop.connectionCount
            }.reduce(0, +)
            if open == 0 { break }
            try? await Task.sleep(for: .milliseconds(5))
        }
        let core = self.core
        // Stopping the server's own loops waits for their threads: do it on a thread of its own
        // rather than holding one of Swift's shared pool threads.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                Self.stopNow(running, core: core, listenerClosed: true)
                continuation.resume()
            }.start()
        }
    }

    /// Runs `body` with each loop's part on its thread, one loop after the other; a stopped loop is skipped.
    private static func onEveryLoop<T: Sendable>(
        _ running: Running, _ body: @escaping @Sendable (ServerLoop) -> T
    ) async -> [T] {
        var results: [T] = []
        for serverLoop in running.loops {
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                let scheduled = serverLoop.loop.execute { continuation.resume(returning: body(serverLoop)) }
                if !scheduled { continuation.resume(returning: nil) }
            }
            if let result { results.append(result) }
        }
        return results
    }

    /// Closes every connection, closes the listening socket (unless closed already), and stops
    /// the server's own loops (a handed-in group keeps running), without waiting for requests.
    private static func stopNow(_ running: Running, core: ServerCore, listenerClosed: Bool = false) {
        core.draining.store(true, ordering: .relaxed)
        core.stopped.store(true, ordering: .relaxed)
        for serverLoop in running.loops {
            let work: @Sendable () -> Void = {
                serverLoop.stopAccepting()
                _ = serverLoop.answerUnfinished(
                    with: .problem(ProblemDetails(status: 503, detail: "The server stopped.", code: "shutting_down")))
                serverLoop.closeAll()
            }
            if serverLoop.loop.isCurrent {
                work()
                continue
            }
            let done = DispatchSemaphore(value: 0)
            if serverLoop.loop.execute({
                work()
                done.signal()
            }) {
                done.wait()
            }
        }
        if !listenerClosed { _ = Glibc.close(running.listenSocket) }
        running.ownGroup?.stopNow()
    }
}
