import Foundation

/// Everything `swiftyd` can be told, with a default for every field.
///
/// Sources, later ones winning: these defaults, then the JSON file given with `--config`, then
/// `SWIFTY_*` environment variables, then command-line flags (see ``DaemonConfiguration/load(arguments:environment:)``).
/// Secrets never appear here: only the paths of the files that hold them.
public struct DaemonConfiguration: Sendable, Equatable, Codable {
    /// Where the daemon's modules send their requests.
    public enum Mode: String, Sendable, Codable, CaseIterable {
        /// The sandbox upstreams run in the daemon's process on loopback, with fresh keys.
        case sandbox
        /// Each module calls the base URL and signs with the key file its settings name.
        case live
    }

    /// Which transport a module's client uses.
    public enum TransportKind: String, Sendable, Codable, CaseIterable {
        /// The default: `http1` for a cleartext `http` base URL (the sandbox's included), `curl`
        /// for `https`.
        case auto
        /// libcurl's multi interface: pooled keep-alive connections, HTTP/2 over TLS.
        case curl
        /// Foundation's URLSession: portable, slower.
        case urlsession
        /// The project's HTTP/1.1 client (`HTTP1Transport`) for an `http` base URL: on the app
        /// server's own network threads, over keep-alive connections, with http-parser reading the
        /// answers; the fastest path to a sidecar or an upstream on a private network. `https`
        /// goes through libcurl.
        case http1
    }

    /// Log output settings.
    public struct Logging: Sendable, Equatable, Codable {
        /// The lowest level written: `trace`, `debug`, `info` (the default), `notice`, `warning`,
        /// `error` or `critical`.
        public var level: String = "info"
        /// `json` (one object per line, the default) or `text`.
        public var format: String = "json"

        /// Creates the defaults.
        public init() {}

        private enum CodingKeys: String, CodingKey, CaseIterable { case level, format }

        /// Decodes the settings, rejecting unknown fields.
        public init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            level = try container.decodeIfPresent(String.self, forKey: .level) ?? "info"
            format = try container.decodeIfPresent(String.self, forKey: .format) ?? "json"
        }
    }

    /// Fault injection for the sandbox upstreams (sandbox mode only): for resilience tests and
    /// benchmarks.
    public struct Sandbox: Sendable, Equatable, Codable {
        /// Added to every upstream answer, in milliseconds.
        public var latencyMilliseconds: Int = 0
        /// The fraction of upstream requests answered 503.
        public var errorRate: Double = 0
        /// The fraction of upstream requests whose connection is closed.
        public var resetRate: Double = 0

        /// Creates the defaults: no faults.
        public init() {}

        private enum CodingKeys: String, CodingKey, CaseIterable { case latencyMilliseconds, errorRate, resetRate }

        /// Decodes the settings, rejecting unknown fields.
        public init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            latencyMilliseconds = try container.decodeIfPresent(Int.self, forKey: .latencyMilliseconds) ?? 0
            errorRate = try container.decodeIfPresent(Double.self, forKey: .errorRate) ?? 0
            resetRate = try container.decodeIfPresent(Double.self, forKey: .resetRate) ?? 0
        }
    }

    /// One feature module's binding.
    public struct ModuleSettings: Sendable, Equatable, Codable {
        /// The module's upstream base URL; required in live mode.
        public var baseURL: String?
        /// The `keyid` the module signs with; the module's registered default when `nil`.
        public var keyID: String?
        /// The file holding the module's base64 HMAC key (one line); required in live mode. A
        /// relative path is looked up in `$CREDENTIALS_DIRECTORY` first.
        public var keyFile: String?
        /// The transport; `auto` when `nil`.
        public var transport: TransportKind?
        /// The per-attempt timeout in milliseconds; 5000 when `nil`.
        public var timeoutMilliseconds: Int?
        /// The upstream's bearer credentials (``ModuleCredentials``); none when `nil`.
        public var credentials: ModuleCredentials?
        /// Attempts per call, the first included; 3 when `nil` (1 turns retries off).
        public var retryAttempts: Int?
        /// The backoff before the first retry, doubled for each later one, in milliseconds; 100
        /// when `nil`.
        public var retryBaseDelayMilliseconds: Int?
        /// The largest backoff, in milliseconds; 2000 when `nil`.
        public var retryMaxDelayMilliseconds: Int?
        /// The share of recent first attempts that may be retried; 0.2 when `nil`.
        public var retryBudgetRatio: Double?
        /// Retries allowed per second whatever the traffic; 1 when `nil`.
        public var retryBudgetFloorPerSecond: Double?
        /// The share of failed calls in the breaker's window that opens it; 0.5 when `nil`.
        public var breakerFailureRatio: Double?
        /// How far back the breaker counts calls, in milliseconds; 10000 when `nil`.
        public var breakerWindowMilliseconds: Int?
        /// The fewest calls in the window before the ratio counts; 20 when `nil`.
        public var breakerMinimumCalls: Int?
        /// How long an open breaker fails calls fast before letting a probe through, in
        /// milliseconds; 5000 when `nil`.
        public var breakerOpenMilliseconds: Int?
        /// The most calls of the module in flight; 64 when `nil`.
        public var concurrencyLimit: Int?
        /// Whether concurrent identical reads by one user share one upstream call; `true` when
        /// `nil`.
        public var singleFlight: Bool?

        /// Creates empty settings (every field defaulted).
        public init(
            baseURL: String? = nil,
            keyID: String? = nil,
            keyFile: String? = nil,
            transport: TransportKind? = nil,
            timeoutMilliseconds: Int? = nil
        ) {
            self.baseURL = baseURL
            self.keyID = keyID
            self.keyFile = keyFile
            self.transport = transport
            self.timeoutMilliseconds = timeoutMilliseconds
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case baseURL, keyID, keyFile, transport, timeoutMilliseconds, credentials
            case retryAttempts, retryBaseDelayMilliseconds, retryMaxDelayMilliseconds
            case retryBudgetRatio, retryBudgetFloorPerSecond
            case breakerFailureRatio, breakerWindowMilliseconds, breakerMinimumCalls, breakerOpenMilliseconds
            case concurrencyLimit, singleFlight
        }

        /// Decodes the settings, rejecting unknown fields.
        public init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            baseURL = try container.decodeIfPresent(String.self, forKey: .baseURL)
            keyID = try container.decodeIfPresent(String.self, forKey: .keyID)
            keyFile = try container.decodeIfPresent(String.self, forKey: .keyFile)
            transport = try container.decodeIfPresent(TransportKind.self, forKey: .transport)
            timeoutMilliseconds = try container.decodeIfPresent(Int.self, forKey: .timeoutMilliseconds)
            credentials = try container.decodeIfPresent(ModuleCredentials.self, forKey: .credentials)
            retryAttempts = try container.decodeIfPresent(Int.self, forKey: .retryAttempts)
            retryBaseDelayMilliseconds = try container.decodeIfPresent(Int.self, forKey: .retryBaseDelayMilliseconds)
            retryMaxDelayMilliseconds = try container.decodeIfPresent(Int.self, forKey: .retryMaxDelayMilliseconds)
            retryBudgetRatio = try container.decodeIfPresent(Double.self, forKey: .retryBudgetRatio)
            retryBudgetFloorPerSecond = try container.decodeIfPresent(Double.self, forKey: .retryBudgetFloorPerSecond)
            breakerFailureRatio = try container.decodeIfPresent(Double.self, forKey: .breakerFailureRatio)
            breakerWindowMilliseconds = try container.decodeIfPresent(Int.self, forKey: .breakerWindowMilliseconds)
            breakerMinimumCalls = try container.decodeIfPresent(Int.self, forKey: .breakerMinimumCalls)
            breakerOpenMilliseconds = try container.decodeIfPresent(Int.self, forKey: .breakerOpenMilliseconds)
            concurrencyLimit = try container.decodeIfPresent(Int.self, forKey: .concurrencyLimit)
            singleFlight = try container.decodeIfPresent(Bool.self, forKey: .singleFlight)
        }
    }

    /// Sandbox or live.
    public var mode: Mode = .sandbox
    /// The app-facing API's address: loopback by default.
    public var host: String = "127.0.0.1"
    /// The app-facing API's port.
    public var port: Int = 8080
    /// The admin endpoints' address (`/livez`, `/readyz`, `/metrics`).
    public var adminHost: String = "127.0.0.1"
    /// The admin endpoints' port.
    public var adminPort: Int = 9090
    /// Server threads; the number of CPUs the process may run on when `nil`.
    public var threads: Int?
    /// The largest request body accepted, in bytes.
    public var maxBodyBytes: Int = 1 << 20
    /// The largest total size of a request's header fields, in bytes (larger gets 431). Each
    /// connection's buffer is sized from it, and cleared before every request: a larger limit
    /// costs time on every request.
    public var maxHeaderBytes: Int = 8 << 10
    /// How long in-flight requests may take to finish after SIGTERM or SIGINT, in seconds.
    public var drainSeconds: Double = 10
    /// After SIGTERM or SIGINT, how long `/readyz` answers 503 before the app server stops
    /// accepting, in seconds: a load balancer sees the daemon leave before new connections are
    /// refused. Counted within ``drainSeconds``; 0 in tests.
    public var drainDelaySeconds: Double = 3
    /// The numeric addresses of the proxies (load balancers) in front of the daemon: for a
    /// connection from one of them, the client's address is read from `Forwarded` or
    /// `X-Forwarded-For` and written to the access log (`client`). Empty: no field is believed,
    /// and access-log lines carry no `client`.
    public var trustedProxies: [String] = []
    /// How long an introspected bearer token is trusted before it is checked again, in seconds.
    public var tokenCacheSeconds: Double = 30
    /// The deadline of one app request, shared by every upstream call it makes and all their
    /// attempts, in milliseconds; past it the request answers 504.
    public var requestDeadlineMilliseconds: Int = 10_000
    /// The most app requests handled at once; past it a request is answered 503 with
    /// `Retry-After` at once instead of waiting.
    public var maxInFlight: Int = 512
    /// Log settings.
    public var logging = Logging()
    /// Sandbox fault injection.
    public var sandbox = Sandbox()
    /// Per-module bindings, by module name (`UserModule`, ...).
    public var modules: [String: ModuleSettings] = [:]
    /// The app routes' rate limits (``RateLimitSettings``); payments per user by default.
    var rateLimits = RateLimitSettings()
    /// Where the token cache and the rate limits live: this process's memory or a Redis shared
    /// by several daemons (``SharedStateSettings``).
    public var sharedState = SharedStateSettings()

    /// Creates the defaults.
    public init() {}

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case mode, host, port, adminHost, adminPort, threads, maxBodyBytes, maxHeaderBytes, drainSeconds
        case drainDelaySeconds
        case tokenCacheSeconds, trustedProxies
        case requestDeadlineMilliseconds, maxInFlight
        case logging, sandbox, modules, rateLimits
        case sharedState
    }

    /// Decodes a configuration file: absent fields keep their defaults; unknown fields are
    /// rejected so a typo cannot pass unnoticed.
    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = DaemonConfiguration()
        mode = try container.decodeIfPresent(Mode.self, forKey: .mode) ?? defaults.mode
        host = try container.decodeIfPresent(String.self, forKey: .host) ?? defaults.host
        port = try container.decodeIfPresent(Int.self, forKey: .port) ?? defaults.port
        adminHost = try container.decodeIfPresent(String.self, forKey: .adminHost) ?? defaults.adminHost
        adminPort = try container.decodeIfPresent(Int.self, forKey: .adminPort) ?? defaults.adminPort
        threads = try container.decodeIfPresent(Int.self, forKey: .threads)
        maxBodyBytes = try container.decodeIfPresent(Int.self, forKey: .maxBodyBytes) ?? defaults.maxBodyBytes
        maxHeaderBytes =
            try container.decodeIfPresent(Int.self, forKey: .maxHeaderBytes) ?? defaults.maxHeaderBytes
        drainSeconds = try container.decodeIfPresent(Double.self, forKey: .drainSeconds) ?? defaults.drainSeconds
        drainDelaySeconds =
            try container.decodeIfPresent(Double.self, forKey: .drainDelaySeconds) ?? defaults.drainDelaySeconds
        trustedProxies =
            try container.decodeIfPresent([String].self, forKey: .trustedProxies) ?? defaults.trustedProxies
        tokenCacheSeconds =
            try container.decodeIfPresent(Double.self, forKey: .tokenCacheSeconds) ?? defaults.tokenCacheSeconds
        requestDeadlineMilliseconds =
            try container.decodeIfPresent(Int.self, forKey: .requestDeadlineMilliseconds)
            ?? defaults.requestDeadlineMilliseconds
        maxInFlight = try container.decodeIfPresent(Int.self, forKey: .maxInFlight) ?? defaults.maxInFlight
        logging = try container.decodeIfPresent(Logging.self, forKey: .logging) ?? defaults.logging
        sandbox = try container.decodeIfPresent(Sandbox.self, forKey: .sandbox) ?? defaults.sandbox
        modules = try container.decodeIfPresent([String: ModuleSettings].self, forKey: .modules) ?? [:]
        rateLimits = try container.decodeIfPresent(RateLimitSettings.self, forKey: .rateLimits) ?? defaults.rateLimits
        sharedState =
            try container.decodeIfPresent(SharedStateSettings.self, forKey: .sharedState) ?? defaults.sharedState
    }
}

/// Rejects keys a configuration object does not know.
enum StrictKeys {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func check<Keys: CodingKey & CaseIterable>(_ decoder: any Decoder, allowed: Keys.Type) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let known = Set(Keys.allCases.map(\.stringValue))
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [key],
                    debugDescription:
                        "unknown field \"\(key.stringValue)\"; known: \(known.sorted().joined(separator: ", "))"
                )
            )
        }
    }
}
