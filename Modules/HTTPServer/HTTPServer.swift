public import AppLogging
import CMicroHTTPD
import Dispatch
public import EventLoops
import Foundation
import Glibc
import Synchronization

/// An HTTP/1.1 server over libmicrohttpd whose handlers are Swift `async` functions.
///
/// Each request is parsed and checked by the server (body, header and smuggling limits, see
/// ``Configuration``), then handed to the handler in a task; the answer is sent once the handler
/// returns. Connections are kept alive between requests.
///
/// The server runs on the loops of an `EventLoopGroup`, handed in (shared with the transports its
/// handlers call, so an upstream call stays on the handler's thread) or made for itself
/// (``Configuration/threadCount`` loops). Each loop drives its own libmicrohttpd daemon on the
/// shared listening socket and is the preferred task executor of the handlers it starts, so a
/// handler's async hops come back to the same thread. A handler whose hops do not really wait
/// (default actors, yields) answers before the connection is even suspended; one that waits (an upstream call) suspends it until the answer comes.
/// Handlers therefore must not block their thread: run blocking work elsewhere and await it.
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
    /// The running parts: one libmicrohttpd daemon per loop, the shared socket.
    private struct Running: Sendable {
        var drivers: [MHDLoopDriver]
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
    ///   - handler: Answers one request; called concurrently from many tasks.
    public init(
        configuration: Configuration = Configuration(),
        eventLoops: EventLoopGroup?,
        logger: Logger = Logger(label: "swifty.http-server"),
        handler: @escaping @Sendable (ServerRequest) async -> ServerResponse
    ) {
        self.configuration = configuration
        self.eventLoops = eventLoops
        self.core = ServerCore(configuration: configuration, logger: logger, handler: handler)
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
        if running.drivers.contains(where: \.loop.isCurrent) {
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
            var running = Running(drivers: [], listenSocket: listenSocket, port: port, ownGroup: nil)
            do throws(HTTPServerError) {
                let group: EventLoopGroup
                if let eventLoops {
                    group = eventLoops
                } else {
                    do {
                        group = try EventLoopGroup(loopCount: configuration.threadCount, name: "http")
                    } catch {
                        throw HTTPServerError(code: .startFailed, message: "the network threads: \(error)")
                    }
                    running.ownGroup = group
                }
                for (index, loop) in group.loops.enumerated() {
                    running.drivers.append(
                        try startDaemon(
                            index: index, of: group.loops.count, on: loop, address: address,
                            listenSocket: listenSocket))
                }
            } catch {
                Self.stopNow(running, core: core)
                throw error
            }
            state = .running(running)
        }
    }

    /// Starts one libmicrohttpd daemon on the shared listening socket, driven by `loop`.
    private func startDaemon(
        index: Int, of count: Int, on loop: EventLoop, address: SocketAddress, listenSocket: Int32
    ) throws(HTTPServerError) -> MHDLoopDriver {
        var flags = MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.family == .ipv6 { flags |= MHD_USE_IPv6.rawValue }
        // The first loop also answers handlers past their timeout, on its own clock: a sweep that
        // depended on Swift's shared thread pool would stall whenever that pool is busy.
        let sweepInterval = index == 0 ? configuration.handlerTimeout.map { min(.seconds(1), $0 / 4) } : nil
        // The driver is the callbacks' `cls`: made before the daemon, which it then drives.
        let driver = MHDLoopDriver(core: core, loop: loop, sweepInterval: sweepInterval)
        let cls = Unmanaged.passUnretained(driver).toOpaque()
        // The connection limit is shared out between the loops; the per-address limit applies per loop.
        let connectionLimit = (configuration.connectionLimit + count - 1) / count
        let daemon = address.withSockAddr { sockaddr -> OpaquePointer? in
            var settings = swifty_mhd_settings(
                flags: flags,
                address: sockaddr,
                listen_fd: listenSocket,
                access_handler: MHDCallbacks.access,
                access_cls: cls,
                completed: MHDCallbacks.completed,
                completed_cls: cls,
                uri_logger: MHDCallbacks.uriLog,
                uri_logger_cls: cls,
                memory_limit: configuration.connectionMemoryLimit,
                connection_limit: UInt32(connectionLimit),
                per_ip_connection_limit: UInt32(configuration.perIPConnectionLimit),
                connection_timeout_seconds: UInt32(configuration.connectionTimeout.components.seconds),
                thread_pool_size: 0,
                listen_backlog: 0,
                raw_unescape: 1
            )
            return swifty_mhd_start(&settings)
        }
        guard let daemon else {
            throw HTTPServerError(
                code: .startFailed,
                message: "libmicrohttpd could not start on \(configuration.host) port \(configuration.port)."
            )
        }
        driver.daemon = daemon
        driver.descriptor = swifty_mhd_epoll_fd(daemon)
        // Handed to the loop after both are set: the hand-over orders the writes before its reads.
        guard driver.descriptor >= 0, loop.execute({ loop.addHook(driver) }) else {
            _ = MHD_quiesce_daemon(daemon)
            MHD_stop_daemon(daemon)
            throw HTTPServerError(code: .startFailed, message: "loop \(index) could not take libmicrohttpd's daemon")
        }
        return driver
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
            guard case .running(let running) = state, !running.drivers.isEmpty else { return nil }
            return running.drivers[abs(index) % running.drivers.count].loop
        }
        guard let loop else {
            throw HTTPServerError(
                code: .invalidState, message: "the server is not running, so it has no network thread")
        }
        return try await withTaskExecutorPreference(loop) { try await body() }
    }

    /// The requests handed to the handler that have not been answered yet (for readiness and draining).
    public var inFlightCount: Int { core.inFlight.load(ordering: .relaxed) }

    /// Request contexts alive right now; counted in debug builds only (always 0 in release).
    var liveRequestContexts: Int { core.liveContexts.count.load(ordering: .relaxed) }

    /// Stops accepting connections, lets in-flight requests finish for up to `gracePeriod`, then stops.
    ///
    /// New connections are refused at once, and answers sent while draining carry
    /// `Connection: close`. Requests whose handler has not answered when the grace period ends get
    /// 503. Calling it again, or on a server never started, returns at once.
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
        for driver in running.drivers {
            // libmicrohttpd's state belongs to the loop's thread: quiesce there.
            await Task(executorPreference: driver.loop) {
                if let daemon = driver.daemon { _ = MHD_quiesce_daemon(daemon) }
            }.value
        }
        // Refuse new connections now; the descriptor stays open until every daemon has stopped.
        _ = Glibc.shutdown(running.listenSocket, Int32(SHUT_RDWR))
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: gracePeriod)
        while core.inFlight.load(ordering: .relaxed) > 0 && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        if core.abandonSuspended() > 0 {
            // Give the connections just resumed a moment to send their 503.
            let flushDeadline = clock.now.advanced(by: .milliseconds(200))
            while core.inFlight.load(ordering: .relaxed) > 0 && clock.now < flushDeadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        // Stopping waits for the network threads to finish their turn: do it on a thread of its
        // own rather than holding one of Swift's shared pool threads.
        let core = self.core
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                Self.stopNow(running, core: core)
                continuation.resume()
            }.start()
        }
    }

    /// Takes every daemon off its loop and stops it, closes the listening socket, and stops the
    /// server's own loops (a handed-in group keeps running), without waiting for requests.
    private static func stopNow(_ running: Running, core: ServerCore) {
        core.draining.store(true, ordering: .relaxed)
        _ = core.abandonSuspended()
        for driver in running.drivers {
            // A last run on the loop sends the answers just resumed; then the loop forgets the daemon.
            let detached = DispatchSemaphore(value: 0)
            let loop = driver.loop
            if loop.execute({
                driver.run()
                loop.removeHook(driver)
                detached.signal()
            }) {
                detached.wait()
            }
        }
        // Quiesce all before stopping any: the daemons share the listening socket, which is ours to close.
        for driver in running.drivers { if let daemon = driver.daemon { _ = MHD_quiesce_daemon(daemon) } }
        for driver in running.drivers { if let daemon = driver.daemon { MHD_stop_daemon(daemon) } }
        _ = Glibc.close(running.listenSocket)
        running.ownGroup?.stopNow()
    }
}
