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
        /// The number of network threads of a server that makes its own loops (with each its
        /// own libmicrohttpd daemon on the shared listening socket and each the task executor of
        /// the handlers it starts); the number of CPUs the process may run on unless given
        /// (``defaultThreadCount``). A server given an `EventLoopGroup` runs on all of its loops.
        public var threadCount: Int
        /// The most connections open at once (shared out evenly between the network threads);
        /// further ones are refused.
        public var connectionLimit: Int
        /// The most connections open at once from one client address, enforced per network thread;
        /// 0 means no per-address limit.
        public var perIPConnectionLimit: Int
        /// How long a connection may stay idle before it is closed (whole seconds; zero disables).
        public var connectionTimeout: Duration
        /// The largest request body accepted; larger ones get 413.
        public var maxBodyBytes: Int
        /// The largest total size of the request's header fields (names and values); larger gets
        /// 431. 8 KiB unless given, far more than an app's requests carry; raise it (with
        /// ``connectionMemoryLimit``) for large cookies or tokens.
        public var maxHeaderBytes: Int
        /// The most header fields in one request; more gets 431.
        public var maxHeaderCount: Int
        /// The memory libmicrohttpd may use per connection for the request head and I/O buffers.
        ///
        /// A request head that does not fit is answered by libmicrohttpd itself (431 or a closed
        /// connection); keep it at twice ``maxHeaderBytes`` (``connectionMemory(forHeaderBytes:)``,
        /// what the initializer sets unless given: 16 KiB by default) so the server's own 431
        /// applies first.
        ///
        /// libmicrohttpd clears half of this memory before every request (the read buffer it starts
        /// each request with), so a larger value costs time on every request, not only memory.
        public var connectionMemoryLimit: Int
        /// The length of the kernel's queue of connections not yet accepted.
        public var listenBacklog: Int
        /// How long a handler may take before the server answers 504 in its place; `nil` for no limit.
        ///
        /// libmicrohttpd never times out a connection while its handler runs, so this is the
        /// safety net that makes every request end. The handler's task is not cancelled; its late
        /// answer is dropped. Checked about once a second (or every quarter of the timeout, if shorter).
        public var handlerTimeout: Duration?

        /// The number of CPUs this process may run on (`EventLoopGroup.defaultLoopCount`): the
        /// default ``threadCount``.
        public static var defaultThreadCount: Int { EventLoopGroup.defaultLoopCount }

        /// The per-connection memory that holds a request head of `headerBytes` (and as many fields
        /// as ``maxHeaderCount`` allows) with room to spare: twice that, and at least 16 KiB.
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
            perIPConnectionLimit: Int = 0,
            connectionTimeout: Duration = .seconds(30),
            maxBodyBytes: Int = 1 << 20,
            maxHeaderBytes: Int = 8 << 10,
            maxHeaderCount: Int = 100,
            connectionMemoryLimit: Int? = nil,
            listenBacklog: Int = 511,
            handlerTimeout: Duration? = .seconds(60)
        ) {
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.connectionLimit = connectionLimit
            self.perIPConnectionLimit = perIPConnectionLimit
            self.connectionTimeout = connectionTimeout
            self.maxBodyBytes = maxBodyBytes
            self.maxHeaderBytes = maxHeaderBytes
            self.maxHeaderCount = maxHeaderCount
            self.connectionMemoryLimit = connectionMemoryLimit ?? Self.connectionMemory(forHeaderBytes: maxHeaderBytes)
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
