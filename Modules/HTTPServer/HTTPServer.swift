public import AppLogging
import CMicroHTTPD
import Foundation
import Glibc
import Synchronization

/// An HTTP/1.1 server over libmicrohttpd whose handlers are Swift `async` functions.
///
/// Each request is parsed and checked by the server (body, header and smuggling limits, see
/// ``Configuration``), then handed to the handler in a task while its connection is suspended;
/// the answer is sent once the handler returns. Connections are kept alive between requests.
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
    /// Where the server is in its life.
    private enum Lifecycle {
        case idle
        case running(daemon: DaemonHandle, port: Int)
        case stopping(port: Int)
        case stopped
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let core: ServerCore
    private let lifecycle = Mutex(Lifecycle.idle)

    /// Creates a server; it listens only once ``start()`` is called.
    /// - Parameters:
    ///   - configuration: Address, port and limits; defaults bind 127.0.0.1 on an ephemeral port.
    ///   - logger: Where server errors go (never request bodies or credentials).
    ///   - handler: Answers one request; called concurrently from many tasks.
    public init(
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "swifty.http-server"),
        handler: @escaping @Sendable (ServerRequest) async -> ServerResponse
    ) {
        self.configuration = configuration
        self.core = ServerCore(configuration: configuration, logger: logger, handler: handler)
    }

    /// Creates a server that answers through `router`.
    /// - Parameters:
    ///   - configuration: Address, port and limits.
    ///   - logger: Where server errors go.
    ///   - router: The routes; unknown paths get 404, known paths with another method 405.
    public convenience init(
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "swifty.http-server"),
        router: Router
    ) {
        self.init(configuration: configuration, logger: logger, handler: router.handle)
    }

    deinit {
        // A server dropped without shutdown stops at once; in-flight requests get 503.
        let daemon: DaemonHandle? = lifecycle.withLock { state in
            guard case .running(let daemon, _) = state else { return nil }
            state = .stopped
            return daemon
        }
        if let daemon { Self.stop(daemon, core: core) }
    }

    /// Binds the configured address and starts serving.
    ///
    /// - Throws: ``HTTPServerError`` with `.invalidConfiguration` for a bad configuration,
    ///   `.startFailed` when the address cannot be bound, `.invalidState` when already started.
    public func start() throws(HTTPServerError) {
        try configuration.validate()
        try lifecycle.withLock { (state: inout Lifecycle) throws(HTTPServerError) in
            guard case .idle = state else {
                throw HTTPServerError(code: .invalidState, message: "start() may be called once, on a new server.")
            }
            let daemon = try startDaemon()
            let port = Int(swifty_mhd_bind_port(daemon.pointer))
            state = .running(daemon: daemon, port: port)
        }
    }

    private func startDaemon() throws(HTTPServerError) -> DaemonHandle {
        guard let address = SocketAddress(host: configuration.host, port: UInt16(configuration.port)) else {
            throw HTTPServerError(code: .invalidConfiguration, message: "host \"\(configuration.host)\" is not numeric")
        }
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_AUTO.rawValue
        flags |= MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.family == .ipv6 { flags |= MHD_USE_IPv6.rawValue }
        let cls = Unmanaged.passUnretained(core).toOpaque()
        let timeout = configuration.connectionTimeout.components.seconds
        let daemon = address.withSockAddr { sockaddr -> OpaquePointer? in
            var settings = swifty_mhd_settings(
                flags: flags,
                address: sockaddr,
                access_handler: MHDCallbacks.access,
                access_cls: cls,
                completed: MHDCallbacks.completed,
                completed_cls: cls,
                uri_logger: MHDCallbacks.uriLog,
                uri_logger_cls: cls,
                memory_limit: configuration.connectionMemoryLimit,
                connection_limit: UInt32(configuration.connectionLimit),
                per_ip_connection_limit: UInt32(configuration.perIPConnectionLimit),
                connection_timeout_seconds: UInt32(timeout),
                thread_pool_size: UInt32(configuration.threadCount),
                listen_backlog: UInt32(configuration.listenBacklog),
                raw_unescape: 1
            )
            return swifty_mhd_start(&settings)
        }
        guard let daemon else {
            let reason = String(cString: strerror(errno))
            throw HTTPServerError(
                code: .startFailed,
                message: "libmicrohttpd could not listen on \(configuration.host) port \(configuration.port) (\(reason)); "
                    + "check that the address is local and the port is free."
            )
        }
        return DaemonHandle(pointer: daemon)
    }

    /// The bound TCP port (the ephemeral one when the configuration said 0), or 0 when not running.
    public var port: Int {
        lifecycle.withLock { state in
            switch state {
            case .running(_, let port), .stopping(let port): port
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

    /// The requests handed to the handler that have not been answered yet (for readiness and draining).
    public var inFlightCount: Int { core.inFlight.load(ordering: .relaxed) }

    /// Stops accepting connections, lets in-flight requests finish for up to `gracePeriod`, then stops.
    ///
    /// New connections are refused at once. Requests whose handler has not answered when the
    /// grace period ends get 503. Calling it again, or on a server never started, does nothing.
    /// - Parameter gracePeriod: How long in-flight requests may still take.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        let daemon: DaemonHandle? = lifecycle.withLock { state in
            guard case .running(let daemon, let port) = state else { return nil }
            state = .stopping(port: port)
            return daemon
        }
        guard let daemon else { return }
        core.draining.store(true, ordering: .relaxed)
        let listenSocket = MHD_quiesce_daemon(daemon.pointer)
        if listenSocket >= 0 {
            // Stop listening now so new connections are refused; the descriptor itself must stay
            // open until MHD_stop_daemon has returned (its threads may still refer to it).
            _ = Glibc.shutdown(listenSocket, Int32(SHUT_RDWR))
        }
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
        MHD_stop_daemon(daemon.pointer)
        if listenSocket >= 0 { _ = Glibc.close(listenSocket) }
        lifecycle.withLock { $0 = .stopped }
    }

    private static func stop(_ daemon: DaemonHandle, core: ServerCore) {
        core.draining.store(true, ordering: .relaxed)
        _ = core.abandonSuspended()
        MHD_stop_daemon(daemon.pointer)
    }
}
