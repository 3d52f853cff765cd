extension CurlTransport {
    /// How a ``CurlTransport`` connects, pools and limits.
    ///
    /// Every field has a default suited to a backend calling a few upstream hosts; set
    /// ``maxCachedConnections`` to at least twice the number of requests you expect in flight at once,
    /// or connections are closed and opened again under load.
    public struct Configuration: Sendable, Equatable {
        /// Whether redirects (3xx with `Location`) are followed.
        public enum RedirectPolicy: Sendable, Equatable {
            /// Redirect responses are returned as they are (the default).
            case none
            /// Up to `maxCount` redirects are followed, to `http` and `https` URLs only.
            case follow(maxCount: Int)
        }

        /// Which HTTP version is asked for.
        public enum HTTPVersion: Sendable, Equatable {
            /// HTTP/1.1 only.
            case http1_1
            /// HTTP/2 over TLS when the server offers it in ALPN, HTTP/1.1 otherwise (the default).
            case http2OverTLS
        }

        /// The timeout of a request whose `HTTPRequest.timeout` is `nil`. Default 30 s.
        public var defaultTimeout: Duration
        /// The longest a new connection may take to be established (TCP and TLS). Default 10 s.
        public var connectTimeout: Duration
        /// How many idle connections are kept open for reuse (`CURLMOPT_MAXCONNECTS`). Default 128.
        ///
        /// Keep it at least twice the expected concurrency.
        public var maxCachedConnections: Int
        /// The most connections opened to one host at once (`CURLMOPT_MAX_HOST_CONNECTIONS`);
        /// further requests wait for a free one. `0` (the default) means no limit.
        public var maxConnectionsPerHost: Int
        /// The most connections open at once in total (`CURLMOPT_MAX_TOTAL_CONNECTIONS`); `0` (the
        /// default) means no limit.
        public var maxTotalConnections: Int
        /// The largest response body accepted, in bytes; a larger one fails with
        /// `TransportError.Code.responseTooLarge`. Default 64 MiB.
        public var maxResponseBodySize: Int
        /// Whether redirects are followed. Default ``RedirectPolicy/none``.
        public var redirects: RedirectPolicy
        /// Which HTTP version is asked for. Default ``HTTPVersion/http2OverTLS``.
        public var httpVersion: HTTPVersion
        /// Whether a request to an `https` host whose connection is still negotiating TLS waits to
        /// be multiplexed on it (HTTP/2) instead of opening another connection. Default `true`.
        /// Applies only with ``HTTPVersion/http2OverTLS``; a request to an `http` URL never waits
        /// (cleartext connections do not multiplex), so a burst opens a connection per request.
        public var waitForMultiplexing: Bool
        /// How many idle easy handles are kept for reuse. Default 256.
        public var maxIdleHandles: Int
        /// A file of trusted CA certificates in PEM, or `nil` for the system's. Default `nil`.
        public var caBundlePath: String?
        /// A `User-Agent` sent when the request has none, or `nil` to send none. Default `nil`.
        public var userAgent: String?
        /// Whether a request sent from one of the transport's event loops (an HTTP server's
        /// network thread, see ``CurlTransport/eventLoops``) runs on that loop instead of the
        /// transport's own thread. Default `true`.
        ///
        /// On the loop, the upstream call costs no hand-over between threads: libcurl's sockets
        /// are watched by the loop that serves the request, and the caller resumes on it. Each
        /// such loop gets its own connection pool (sized by this configuration). Requests from
        /// any other thread use the transport's own thread either way.
        public var usesCallerEventLoop: Bool

        /// Creates a configuration; every parameter has the default documented on its property.
        public init(
            defaultTimeout: Duration = .seconds(30),
            connectTimeout: Duration = .seconds(10),
            maxCachedConnections: Int = 128,
            maxConnectionsPerHost: Int = 0,
            maxTotalConnections: Int = 0,
            maxResponseBodySize: Int = 64 << 20,
            redirects: RedirectPolicy = .none,
            httpVersion: HTTPVersion = .http2OverTLS,
            waitForMultiplexing: Bool = true,
            maxIdleHandles: Int = 256,
            caBundlePath: String? = nil,
            userAgent: String? = nil,
            usesCallerEventLoop: Bool = true
        ) {
            self.defaultTimeout = defaultTimeout
            self.connectTimeout = connectTimeout
            self.maxCachedConnections = maxCachedConnections
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxTotalConnections = maxTotalConnections
            self.maxResponseBodySize = maxResponseBodySize
            self.redirects = redirects
            self.httpVersion = httpVersion
            self.waitForMultiplexing = waitForMultiplexing
            self.maxIdleHandles = maxIdleHandles
            self.caBundlePath = caBundlePath
            self.userAgent = userAgent
            self.usesCallerEventLoop = usesCallerEventLoop
        }

        /// A configuration sized for `concurrency` requests in flight at once: it keeps twice as many
        /// idle connections, and the other defaults.
        public static func sized(forConcurrency concurrency: Int) -> Configuration {
            Configuration(maxCachedConnections: max(2, 2 * concurrency))
        }
    }
}

extension Duration {
    /// Whole milliseconds, at least 1 (libcurl reads 0 as "no timeout"), at most one day.
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        if seconds >= 86_400 { return 86_400_000 }
        if seconds < 0 { return 1 }
        let ms = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        return max(1, ms)
    }
}
