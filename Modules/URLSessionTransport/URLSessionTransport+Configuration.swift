extension URLSessionTransport {
    /// How a ``URLSessionTransport`` times out, limits and redirects.
    public struct Configuration: Sendable, Equatable {
        /// The timeout of a request whose `HTTPRequest.timeout` is `nil`. Default 60 s.
        public var defaultTimeout: Duration
        /// The largest response body accepted, in bytes; a larger one fails with
        /// `TransportError.Code.responseTooLarge`. Default 64 MiB.
        public var maxResponseBodySize: Int
        /// Whether redirects (3xx with `Location`) are followed. Default `false`: the 3xx response
        /// is returned as it is.
        public var followsRedirects: Bool
        /// The most connections opened to one host at once. Default 16.
        public var maxConnectionsPerHost: Int

        /// Creates a configuration; every parameter has the default documented on its property.
        public init(
            defaultTimeout: Duration = .seconds(60),
            maxResponseBodySize: Int = 64 << 20,
            followsRedirects: Bool = false,
            maxConnectionsPerHost: Int = 16
        ) {
            self.defaultTimeout = defaultTimeout
            self.maxResponseBodySize = maxResponseBodySize
            self.followsRedirects = followsRedirects
            self.maxConnectionsPerHost = maxConnectionsPerHost
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval`.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
