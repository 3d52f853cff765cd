extension HTTP1Transport {
    /// How an ``HTTP1Transport`` connects, pools and limits on its fast path.
    ///
    /// The fallback transport keeps its own settings for the requests it takes.
    public struct Configuration: Sendable, Equatable {
        /// The timeout of a request whose `HTTPRequest.timeout` is `nil`. Default 30 s.
        public var defaultTimeout: Duration
        /// The longest a new connection may take to be established. Default 10 s.
        public var connectTimeout: Duration
        /// How many idle keep-alive connections each event loop keeps per upstream host and port.
        /// Default 128; keep it at least the number of requests one loop has in flight to that host.
        public var maxIdleConnectionsPerHost: Int
        /// How long a connection may sit idle and still be reused. Default 60 s; an older one is
        /// closed when next wanted, because a peer or a middlebox may have dropped it silently.
        public var maxIdleTime: Duration
        /// The largest response body accepted, in bytes; a larger one fails with
        /// `TransportError.Code.responseTooLarge`. Default 64 MiB.
        public var maxResponseBodySize: Int
        /// How long the address a host name resolved to is used for new connections. Default
        /// 30 s. Open connections keep theirs.
        public var addressLifetime: Duration
        /// The largest response head (status line and header fields) accepted, in bytes; a larger one
        /// fails with `TransportError.Code.other`. Default 64 KiB.
        public var maxResponseHeadSize: Int
        /// Whether a request sent from one of the transport's event loops runs on that loop (the
        /// fast path). Default `true`; with `false` every request goes to the fallback (counted
        /// as ``HTTP1Transport/FallbackReason/offLoop``).
        public var usesCallerEventLoop: Bool

        /// Creates a configuration; every parameter has the default documented on its property.
        public init(
            defaultTimeout: Duration = .seconds(30),
            connectTimeout: Duration = .seconds(10),
            maxIdleConnectionsPerHost: Int = 128,
            maxIdleTime: Duration = .seconds(60),
            maxResponseBodySize: Int = 64 << 20,
            maxResponseHeadSize: Int = 64 << 10,
            addressLifetime: Duration = .seconds(30),
            usesCallerEventLoop: Bool = true
        ) {
            self.defaultTimeout = defaultTimeout
            self.connectTimeout = connectTimeout
            self.maxIdleConnectionsPerHost = maxIdleConnectionsPerHost
            self.maxIdleTime = maxIdleTime
            self.maxResponseBodySize = maxResponseBodySize
            self.maxResponseHeadSize = maxResponseHeadSize
            self.addressLifetime = addressLifetime
            self.usesCallerEventLoop = usesCallerEventLoop
        }
    }
}
