public import AppLogging
public import EventLoops
import HTTPServer
public import RedisClient
import RequestSigning

extension SandboxUpstreams {
    /// Where the upstreams listen and how they behave; every field has a default.
    public struct Configuration: Sendable {
        /// The numeric address every upstream binds: `127.0.0.1` unless given.
        public var host: String
        /// The user upstream's port; 0 picks a free one.
        public var userPort: Int
        /// The feed upstream's port; 0 picks a free one.
        public var feedPort: Int
        /// The payment upstream's port; 0 picks a free one.
        public var paymentPort: Int
        /// The faults each upstream starts with (none unless given); change them later with
        /// ``SandboxUpstreams/setFaults(_:for:)``.
        public var faults: [SandboxService: FaultSettings]
        /// The seed of the fault generators (each upstream derives its own from it), so a run's
        /// injected faults can be repeated.
        public var faultSeed: UInt64
        /// How long the seeded tokens (`sandbox-alice`...) stay active after start: 24 hours.
        public var tokenLifetime: Duration
        /// The network threads the upstreams share when they make their own loops (no
        /// ``eventLoops`` given): ``defaultThreadCount`` unless given.
        public var threadCount: Int
        /// The loops every upstream's server (and the Redis client) runs on, owned by the caller,
        /// who stops them after ``SandboxUpstreams/shutdown(gracePeriod:)``; `nil` (the default)
        /// makes ``threadCount`` loops of the sandbox's own at start. On a caller's loops, an
        /// upstream call from one of its handlers is answered on the same thread, but after the
        /// work already queued there; `swiftyd` gives the sandbox a loop of its own.
        public var eventLoops: EventLoopGroup? = nil
        /// Where the upstreams log (refused signatures at `notice`, every answer at `debug`).
        public var logger: Logger
        /// The signed requests per second each upstream is sized for (5 000 unless given): each
        /// upstream's in-memory replay guard holds up to twice this rate times the verifier's
        /// window (``replayWindow``, 91 s), refusing new signatures with 503 beyond that rather
        /// than forgetting a live nonce. Memory follows the nonces actually held (about 240 bytes
        /// each at most). Not used with ``redis``, where nonces live in Redis.
        public var replayRequestsPerSecond: Double = 5_000
        /// The most signature nonces each upstream's in-memory replay guard holds, overriding the
        /// size from ``replayRequestsPerSecond``; `nil` (the default) sizes it from the rate.
        public var replayCapacity: Int? = nil
        /// The OAuth 2.0 clients the token endpoint (`POST /oauth/token`) accepts: client id to
        /// secret. None unless given; add some later with ``SandboxUpstreams/registerTokenClient(id:secret:)``.
        public var tokenClients: [String: String] = [:]
        /// How long an access token from the token endpoint is valid: 5 minutes unless given.
        public var accessTokenLifetime: Duration = .seconds(300)
        /// The upstreams that accept only requests with a valid access token from the token
        /// endpoint, besides the signature: none unless given.
        public var accessTokenRequired: Set<SandboxService> = []
        /// Where the payment ledger lives: `nil` (the default) keeps it in memory; a Redis
        /// configuration puts wallets, charges, refunds and the answers kept per idempotency key
        /// in that Redis, shared by every sandbox set that uses it with the same
        /// ``redisKeyPrefix``. The Redis client runs on the upstreams' loops, so a store call
        /// stays on its request's thread.
        public var redis: RedisConfiguration? = nil
        /// The start of every key the sandbox keeps in Redis: `swifty:sandbox:` unless given.
        public var redisKeyPrefix = "swifty:sandbox:"
        /// Whether every request's signature is checked: always, except for `sandbox-upstreams
        /// --no-verify` (benchmarks against a proxy that cannot sign). Not public on purpose.
        var verifiesSignatures = true

        /// How long a nonce is remembered: the window of the upstreams' verifier
        /// (``SignatureGate``: a 60 s maximum age, as long as the daemon's signatures live, and
        /// 30 s of clock skew).
        public static var replayWindow: Duration { SignatureGate.verifierConfiguration.replayWindow }

        /// The capacity of each upstream's in-memory replay guard: ``replayCapacity`` when given,
        /// else sized from ``replayRequestsPerSecond`` and ``replayWindow``.
        public var effectiveReplayCapacity: Int {
            replayCapacity
                ?? InMemoryReplayGuard.capacity(
                    forRequestsPerSecond: replayRequestsPerSecond, window: Self.replayWindow)
        }

        /// Creates a configuration.
        public init(
            host: String = "127.0.0.1",
            userPort: Int = 0,
            feedPort: Int = 0,
            paymentPort: Int = 0,
            faults: [SandboxService: FaultSettings] = [:],
            faultSeed: UInt64 = 0x5EED_5EED,
            tokenLifetime: Duration = .seconds(24 * 60 * 60),
            threadCount: Int = Configuration.defaultThreadCount,
            logger: Logger = Logger(label: "swifty.sandbox-upstreams")
        ) {
            self.host = host
            self.userPort = userPort
            self.feedPort = feedPort
            self.paymentPort = paymentPort
            self.faults = faults
            self.faultSeed = faultSeed
            self.tokenLifetime = tokenLifetime
            self.threadCount = threadCount
            self.logger = logger
        }

        /// Two network threads, or one when the process may run on one CPU only
        /// (``HTTPServer/HTTPServer/Configuration/defaultThreadCount``): threads that share a
        /// core take turns on it, and each wakes for its own share of the connections.
        public static var defaultThreadCount: Int { min(2, HTTPServer.Configuration.defaultThreadCount) }

        /// The configured port of one upstream.
        public func port(for service: SandboxService) -> Int {
            switch service {
            case .user: userPort
            case .feed: feedPort
            case .payment: paymentPort
            }
        }

        /// Sets the port of one upstream.
        public mutating func setPort(_ port: Int, for service: SandboxService) {
            switch service {
            case .user: userPort = port
            case .feed: feedPort = port
            case .payment: paymentPort = port
            }
        }

        /// Checks ports, thread count, token lifetime and faults (the host is checked when binding).
        /// - Throws: ``SandboxError`` with code `invalidConfiguration`.
        public func validate() throws(SandboxError) {
            for service in SandboxService.allCases {
                guard (0...65535).contains(port(for: service)) else {
                    throw SandboxError(
                        .invalidConfiguration, service: service, "port \(port(for: service)) is outside 0...65535")
                }
                try faults[service]?.validate()
            }
            guard (1...64).contains(threadCount) else {
                throw SandboxError(.invalidConfiguration, "threadCount \(threadCount) is outside 1...64")
            }
            guard tokenLifetime > .zero else {
                throw SandboxError(.invalidConfiguration, "tokenLifetime must be positive")
            }
            guard replayRequestsPerSecond.isFinite, (1...1_000_000).contains(replayRequestsPerSecond) else {
                throw SandboxError(
                    .invalidConfiguration, "replayRequestsPerSecond \(replayRequestsPerSecond) is outside 1...1000000")
            }
            if let replayCapacity, !(1...100_000_000).contains(replayCapacity) {
                throw SandboxError(.invalidConfiguration, "replayCapacity \(replayCapacity) is outside 1...100000000")
            }
            guard !redisKeyPrefix.isEmpty else {
                throw SandboxError(.invalidConfiguration, "redisKeyPrefix must not be empty")
            }
            guard accessTokenLifetime > .zero else {
                throw SandboxError(.invalidConfiguration, "accessTokenLifetime must be positive")
            }
        }
    }
}
