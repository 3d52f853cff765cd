import AppLogging
import CurlTransport
import EventLoops
import HTTP1Transport
import HTTPServer
import ServiceCore
import Synchronization
import URLSessionTransport

/// Everything one loaded configuration builds for the app API: the module clients with their
/// signing keys, upstream URLs, transports and resilience stacks, the authenticator, the rate
/// limiter's settings, and the per-request limits (in-flight cap, deadline, trusted proxies).
///
/// The daemon serves each request with the generation current when it arrived
/// (``DaemonGenerations``); a reload builds a new one beside it and swaps it in. What outlives
/// reloads (the event loops, the token cache, the rate-limit counters, the metrics) is handed in
/// by ``Builder``.
final class DaemonGeneration: Sendable {
    /// Makes generations from configurations, with what every generation shares.
    struct Builder: Sendable {
        /// The process environment as given at start (for `$CREDENTIALS_DIRECTORY` and secrets
        /// named by environment variable).
        let environment: [String: String]
        /// The sandbox upstreams in sandbox mode.
        let sandbox: SandboxRuntime?
        /// The app server's loops, which the transports run on too.
        let eventLoops: EventLoopGroup
        let metrics: Metrics
        let logger: Logger
        let overrides: DaemonOverrides
        /// Kept across reloads: a token checked before a reload stays trusted for its TTL.
        let tokenCache: any TokenCache
        /// Kept across reloads, so that a reload does not hand every client a fresh allowance.
        let rateLimitStore: any RateLimitStore
        /// The rate-limit store's availability, counted in `/metrics` (a shared store's outage).
        let rateLimitHealth: SharedStateHealth

        /// Binds every routed module and builds the app API's router for `configuration`.
        ///
        /// The transports it starts are stopped again when a later step fails.
        /// - Throws: ``ConfigurationProblems`` when a module cannot be bound or a secret read.
        func build(_ configuration: DaemonConfiguration, number: Int) async throws -> DaemonGeneration {
            let bindings: [String: UpstreamBinding]
            switch configuration.mode {
            case .live:
                bindings = try UpstreamBinding.live(configuration, environment: environment)
            case .sandbox:
                guard let sandbox else {
                    throw ConfigurationProblems(problems: ["mode: sandbox mode without sandbox upstreams"])
                }
                bindings = sandbox.bindings(configuration)
            }
            let inUse = Set(bindings.values.map(\.transportInUse))
            if inUse.contains(.curl) || inUse.contains(.urlsession) {
                // Loaded now, so that a machine without libcurl fails the start, not a call.
                do {
                    try CurlLibrary.load()
                } catch {
                    throw ConfigurationProblems(problems: ["transports: \(error.message)"])
                }
            }
            let curl =
                inUse.contains(.curl) || inUse.contains(.http1)
                ? OnDemandCurlTransport(eventLoops: eventLoops, makeNow: inUse.contains(.curl)) : nil
            // libcurl takes what the HTTP/1.1 transport does not (https, calls off the loops).
            let http1 =
                inUse.contains(.http1)
                ? curl.map { HTTP1Transport(eventLoops: eventLoops, fallback: $0, logger: logger) } : nil
            let urlSession = inUse.contains(.urlsession) ? URLSessionTransport() : nil
            let transports = UpstreamTransports(curl: curl, http1: http1, urlSession: urlSession)
            do {
                let modules = ModuleClientFactory(
                    bindings: bindings,
                    curl: curl,
                    http1: http1,
                    urlSession: urlSession,
                    metrics: metrics,
                    logger: logger,
                    overrides: overrides,
                    credentials: try CredentialMiddlewares(configuration: configuration, environment: environment)
                )
                let api = try AppAPI(
                    modules: modules,
                    tokenCache: tokenCache,
                    tokenTTL: configuration.tokenCacheSeconds,
                    rateLimiter: RateLimiter(
                        settings: configuration.rateLimits, store: rateLimitStore, health: rateLimitHealth),
                    trustedProxies: Set(configuration.trustedProxies),
                    metrics: metrics
                )
                // Shown once the generation is made, in place of the one before.
                if let http1 {
                    metrics.addFallbackSource(transport: "http1") {
                        http1.fallbackCounts.map { (reason: $0.key.rawValue, count: $0.value) }
                    }
                }
                return DaemonGeneration(
                    number: number, configuration: configuration, router: api.makeRouter(), transports: transports)
            } catch {
                await transports.stop()
                throw error
            }
        }
    }

    /// 1 for the configuration read at start, then one more per applied reload.
    let number: Int
    /// The configuration it was built from.
    let configuration: DaemonConfiguration
    /// Every route group's routes, bound to this generation's clients.
    let router: Router
    /// The transports this generation's clients call through; stopped when it is retired.
    let transports: UpstreamTransports
    /// The most requests handled at once.
    let maxInFlight: Int
    /// Each request's deadline over all its upstream calls.
    let requestDeadline: Duration
    /// The proxies whose forwarding fields give the client's address.
    let trustedProxies: Set<String>
    /// Requests being served with this generation (``DaemonGenerations/acquire()``).
    let requests = Atomic<Int>(0)

    init(number: Int, configuration: DaemonConfiguration, router: Router, transports: UpstreamTransports) {
        self.number = number
        self.configuration = configuration
        self.router = router
        self.transports = transports
        self.maxInFlight = configuration.maxInFlight
        self.requestDeadline = .milliseconds(configuration.requestDeadlineMilliseconds)
        self.trustedProxies = Set(configuration.trustedProxies)
    }
}
