/// Where a ``RedisClient`` connects, how it authenticates, and the bounds of its pool.
///
/// ```swift
/// var configuration = RedisConfiguration(endpoint: .tcp(host: "127.0.0.1", port: 6379))
/// configuration.credentials = try RedisCredentials(passwordFile: "/etc/swifty/redis.password", username: "swifty")
/// configuration.database = 2
/// ```
public struct RedisConfiguration: Sendable {
    /// Where Redis listens.
    public enum Endpoint: Sendable, Hashable, CustomStringConvertible {
        /// TCP to a host and port: a numeric IPv4 or IPv6 address, or a name, looked up (its IPv4
        /// address if it has one) when a connection is opened and kept for a minute.
        case tcp(host: String, port: Int)
        /// A unix domain socket (Redis's `unixsocket`).
        case unixSocket(path: String)

        /// `host:port` or the socket's path.
        public var description: String {
            switch self {
            case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case .unixSocket(let path): return "unix:\(path)"
            }
        }
    }

    /// How long a connection waits before trying again after a failed one: `initial`, doubled at
    /// each further failure, at most `maximum`. A call made meanwhile fails at once with
    /// ``RedisError/Code/connectionFailed``.
    public struct Backoff: Sendable, Hashable {
        /// The wait after the first failure.
        public var initial: Duration
        /// The longest wait.
        public var maximum: Duration

        /// Creates a backoff.
        public init(initial: Duration = .milliseconds(50), maximum: Duration = .seconds(5)) {
            self.initial = initial
            self.maximum = maximum
        }

        /// The wait after `failures` failures in a row (1 or more).
        func delay(afterFailures failures: Int) -> Duration {
            var delay = initial
            for _ in 1..<max(1, min(failures, 32)) {
                delay *= 2
                if delay >= maximum { return maximum }
            }
            return min(delay, maximum)
        }
    }

    /// Where Redis listens; 127.0.0.1:6379 by default.
    public var endpoint: Endpoint
    /// The credentials sent with `AUTH` on every new connection; none by default.
    public var credentials: RedisCredentials?
    /// The database selected (`SELECT`) on every new connection; 0 by default.
    public var database: Int
    /// How long a new connection may take, `AUTH` and `SELECT` included; 2 s by default.
    public var connectTimeout: Duration
    /// How long a call may take from the moment it is made (waiting for a connection included)
    /// unless it gives its own; 2 s by default.
    public var commandTimeout: Duration
    /// The most connections each event loop keeps (so the client opens at most this many times
    /// the group's loop count); 4 by default, and at least 1. Calls share connections, so more
    /// are opened only while the open ones each carry several commands.
    public var maximumConnectionsPerLoop: Int
    /// The most commands one connection carries at once, written without waiting for the
    /// replies of those before them (a pipeline larger than this is sent alone); 128 by default,
    /// and at least 1. Calls beyond it wait for room or for another connection.
    public var maximumPipelinedCommandsPerConnection: Int
    /// The most calls that may wait for a connection on each loop; one more fails at once with
    /// ``RedisError/Code/poolExhausted``. 1024 by default, and at least 1.
    public var maximumWaitersPerLoop: Int
    /// The wait between failed connection attempts.
    public var reconnectBackoff: Backoff

    /// Creates a configuration; every setting has a default.
    public init(
        endpoint: Endpoint = .tcp(host: "127.0.0.1", port: 6379), credentials: RedisCredentials? = nil,
        database: Int = 0, connectTimeout: Duration = .seconds(2), commandTimeout: Duration = .seconds(2),
        maximumConnectionsPerLoop: Int = 4, maximumPipelinedCommandsPerConnection: Int = 128,
        maximumWaitersPerLoop: Int = 1024, reconnectBackoff: Backoff = Backoff()
    ) {
        self.endpoint = endpoint
        self.credentials = credentials
        self.database = database
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.maximumConnectionsPerLoop = maximumConnectionsPerLoop
        self.maximumPipelinedCommandsPerConnection = maximumPipelinedCommandsPerConnection
        self.maximumWaitersPerLoop = maximumWaitersPerLoop
        self.reconnectBackoff = reconnectBackoff
    }
}
