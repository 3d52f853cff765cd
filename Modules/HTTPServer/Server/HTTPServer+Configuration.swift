import EventLoops
import Foundation

extension HTTPServer {
    /// Where the server listens and the limits it enforces.
    ///
    /// Every field has a safe default; the server listens on 127.0.0.1 (never on every interface
    /// unless ``host`` says so).
    public struct Configuration: Sendable, Equatable {
        /// The numeric address to bind: an IPv4 address such as `127.0.0.1`, an IPv6 address such
        /// as `::1`, or `localhost` (taken as `127.0.0.1`).
        public var host: String
        /// The TCP port; 0 picks a free ephemeral port (read it back from ``HTTPServer/port``).
        public var port: Int
        /// The number of network threads of a server that makes its own loops (each accepts
        /// connections from the shared listening socket and is the task executor of the handlers
        /// it starts); the number of CPUs the process may run on unless given
        /// (``defaultThreadCount``). A server given an `EventLoopGroup` runs on all of its loops.
        public var threadCount: Int
        /// The most connections open at once; a connection past it is closed as soon as it is
        /// accepted (and counted, ``HTTPServer/refusedConnectionCount``).
        public var connectionLimit: Int
        /// The most connections open at once from one client address, past which a new one is
        /// closed at once; 0 means no per-address limit. 256 unless given: one load balancer or
        /// benchmark client with a few dozen connections passes, one address cannot take every slot.
        public var perIPConnectionLimit: Int
        /// How long a kept-alive connection may stay idle between requests before it is closed
        /// (zero disables).
        public var connectionTimeout: Duration
        /// How long a client has, from the first byte of a request head (or from connecting,
        /// for the first request), to send the whole head; past it the request gets 408 and the
        /// connection closes. Not reset by each byte that arrives (zero disables).
        public var headTimeout: Duration
        /// The slowest a request body may arrive, in bytes per second on average, after a grace
        /// of ``headTimeout`` from the end of the head; slower gets 408 (0 disables).
        public var minimumBodyRate: Int
        /// The most requests served on one connection; the answer to the last one carries
        /// `Connection: close`.
        public var maxRequestsPerConnection: Int
        /// The largest request body accepted; larger ones get 413 (checked while reading, and
        /// from `Content-Length` before).
        public var maxBodyBytes: Int
        /// The largest total size of the request's header field lines (names, values, colons and
        /// line ends); larger gets
        /// 431. 8 KiB unless given, far more than an app's requests carry.
        public var maxHeaderBytes: Int
        /// The most header fields in one request; more gets 431.
        public var maxHeaderCount: Int
        /// The longest request-target; longer gets 414.
        public var maxTargetBytes: Int
        /// The most query parameters (`&`-separated pieces) in a request-target; more gets 400.
        public var maxQueryParameters: Int
        /// The read buffer of each connection: the most received bytes held unparsed (pipelined
        /// requests waiting while one is answered); reading pauses when it is full.
        public var connectionMemoryLimit: Int
        /// The most answer bytes waiting for a slow reader before the server stops reading that
        /// connection's next requests (until the writes drain).
        public var maxPendingWriteBytes: Int
        /// After an answer that closes the connection, how long the server keeps reading (and
        /// dropping) what the client still sends before closing, so that the client sees the
        /// answer rather than a reset.
        public var lingerTimeout: Duration
        /// The length of the kernel's queue of connections not yet accepted.
        public var listenBacklog: Int
        /// How long a handler may take before the server answers 504 in its place and cancels the
        /// handler's task; `nil` for no limit.
        public var handlerTimeout: Duration?

        /// The number of CPUs this process may run on (`EventLoopGroup.defaultLoopCount`): the
        /// default ``threadCount``.
        public static var defaultThreadCount: Int { EventLoopGroup.defaultLoopCount }

        /// A read buffer for a head of `headerBytes`: twice that, and at least 16 KiB.
        public static func connectionMemory(forHeaderBytes headerBytes: Int) -> Int {
            max(16 << 10, 2 * headerBytes)
        }

        /// Creates a configuration; every parameter has a default. `connectionMemoryLimit` follows
        /// `maxHeaderBytes` (``connectionMemory(forHeaderBytes:)``) unless given.
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            threadCount: Int = Configuration.defaultThreadCount,
            connectionLimit: Int = 1024,
            perIPConnectionLimit: Int = 256,
            connectionTimeout: Duration = .seconds(30),
            headTimeout: Duration = .seconds(10),
            minimumBodyRate: Int = 1024,
            maxRequestsPerConnection: Int = 10_000,
            maxBodyBytes: Int = 1 << 20,
            maxHeaderBytes: Int = 8 << 10,
            maxHeaderCount: Int = 100,
            maxTargetBytes: Int = 8 << 10,
            maxQueryParameters: Int = 100,
            connectionMemoryLimit: Int? = nil,
            maxPendingWriteBytes: Int = 1 << 20,
            lingerTimeout: Duration = .seconds(2),
            listenBacklog: Int = 511,
            handlerTimeout: Duration? = .seconds(60)
        ) {
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.connectionLimit = connectionLimit
            self.perIPConnectionLimit = perIPConnectionLimit
            self.connectionTimeout = connectionTimeout
            self.headTimeout = headTimeout
            self.minimumBodyRate = minimumBodyRate
            self.maxRequestsPerConnection = maxRequestsPerConnection
            self.maxBodyBytes = maxBodyBytes
            self.maxHeaderBytes = maxHeaderBytes
            self.maxHeaderCount = maxHeaderCount
            self.maxTargetBytes = maxTargetBytes
            self.maxQueryParameters = maxQueryParameters
            self.connectionMemoryLimit = connectionMemoryLimit ?? Self.connectionMemory(forHeaderBytes: maxHeaderBytes)
            self.maxPendingWriteBytes = maxPendingWriteBytes
            self.lingerTimeout = lingerTimeout
            self.listenBacklog = listenBacklog
            self.handlerTimeout = handlerTimeout
        }

        /// Checks every field; throws ``HTTPServerError/Code/invalidConfiguration`` naming the first bad one.
        public func validate() throws(HTTPServerError) {
            func fail(_ message: String) -> HTTPServerError {
                HTTPServerError(code: .invalidConfiguration, message: message)
            }
            guard (0...65535).contains(port) else { throw fail("port \(port) is outside 0...65535") }
            guard (1...1024).contains(threadCount) else { throw fail("threadCount \(threadCount) is outside 1...1024") }
            guard connectionLimit >= 1 && connectionLimit <= Int(UInt32.max) else {
                throw fail("connectionLimit \(connectionLimit) must be at least 1")
            }
            guard perIPConnectionLimit >= 0 && perIPConnectionLimit <= Int(UInt32.max) else {
                throw fail("perIPConnectionLimit \(perIPConnectionLimit) must be 0 (no limit) or more")
            }
            guard connectionTimeout >= .zero && connectionTimeout <= .seconds(86_400) else {
                throw fail("connectionTimeout \(connectionTimeout) is outside 0...86400 seconds")
            }
            for (name, value) in [("headTimeout", headTimeout), ("lingerTimeout", lingerTimeout)]
            where value < .zero || value > .seconds(86_400) {
                throw fail("\(name) \(value) is outside 0...86400 seconds")
            }
            guard minimumBodyRate >= 0 else { throw fail("minimumBodyRate \(minimumBodyRate) must not be negative") }
            guard maxRequestsPerConnection >= 1 else {
                throw fail("maxRequestsPerConnection \(maxRequestsPerConnection) must be at least 1")
            }
            guard maxTargetBytes >= 16 else { throw fail("maxTargetBytes \(maxTargetBytes) must be at least 16") }
            guard maxQueryParameters >= 0 else {
                throw fail("maxQueryParameters \(maxQueryParameters) must not be negative")
            }
            guard maxPendingWriteBytes >= 0 else {
                throw fail("maxPendingWriteBytes \(maxPendingWriteBytes) must not be negative")
            }
            guard maxBodyBytes >= 0 else { throw fail("maxBodyBytes \(maxBodyBytes) must not be negative") }
            guard maxHeaderBytes >= 256 else { throw fail("maxHeaderBytes \(maxHeaderBytes) must be at least 256") }
            guard maxHeaderCount >= 1 else { throw fail("maxHeaderCount \(maxHeaderCount) must be at least 1") }
            guard connectionMemoryLimit >= 4096 else {
                throw fail("connectionMemoryLimit \(connectionMemoryLimit) must be at least 4096")
            }
            guard listenBacklog >= 1 && listenBacklog <= 65535 else {
                throw fail("listenBacklog \(listenBacklog) is outside 1...65535")
            }
            if let handlerTimeout, handlerTimeout <= .zero {
                throw fail("handlerTimeout \(handlerTimeout) must be positive (or nil for no limit)")
            }
            guard SocketAddress(host: host, port: UInt16(port)) != nil else {
                throw fail("host \"\(host)\" is not a numeric IPv4 or IPv6 address (or localhost)")
            }
        }
    }
}
