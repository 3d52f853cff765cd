import AppLifecycle
public import AppLogging
import CurlTransport
import EventLoops
import FeedModule
import Foundation
import HTTP1Transport
import HTTPServer
import PaymentModule
import RequestSigning
import ServiceCore
import URLSessionTransport
import UserModule

/// The composed daemon: the app API and admin servers, each feature module bound to its
/// domain, key and transport, and (in sandbox mode) the sandbox upstreams.
///
/// ``start(configuration:environment:logger:overrides:)`` is the composition root: it builds the
/// long-running parts and starts them in a ``ServiceGroup``, in this order: the admin server,
/// the sandbox upstreams (sandbox mode), the event loops, the upstream transports, the shared
/// state (``SharedStateStores``: the Redis client, when configured), the app server, and last the
/// readiness flag. The app server and the transports share one
/// `EventLoopGroup`, so a handler's upstream call runs on the handler's own thread. ``drain()`` shuts them down in reverse order within `drainSeconds`.
public final class Daemon: Sendable {
    /// The configuration the daemon runs with.
    public let configuration: DaemonConfiguration
    /// Starting, ready or draining.
    public let readiness: Readiness
    /// The metrics served at `/metrics`.
    public let metrics: Metrics
    /// The app API's bound port.
    public var port: Int { appServer.port }
    /// The admin endpoints' bound port.
    public var adminPort: Int { adminServer.port }
    /// The app API's network threads: `threads`, or the CPUs the process may run on.
    public var appThreadCount: Int { appServer.eventLoops?.loops.count ?? appServer.configuration.threadCount }
    /// The sandbox's upstreams when running in sandbox mode.
    public let sandbox: SandboxRuntime?

    private let services: ServiceGroup
    private let appServer: HTTPServer
    private let adminServer: HTTPServer
    private let logger: Logger

    private init(
        configuration: DaemonConfiguration,
        readiness: Readiness,
        metrics: Metrics,
        sandbox: SandboxRuntime?,
        services: ServiceGroup,
        appServer: HTTPServer,
        adminServer: HTTPServer,
        logger: Logger
    ) {
        self.configuration = configuration
        self.readiness = readiness
        self.metrics = metrics
        self.sandbox = sandbox
        self.services = services
        self.appServer = appServer
        self.adminServer = adminServer
        self.logger = logger
    }

    /// Builds and starts the daemon; it is ready (``Readiness/State/ready``) when this returns.
    ///
    /// When a step fails, the parts already started are stopped, the last started first.
    /// - Parameters:
    ///   - configuration: Validated settings.
    ///   - environment: The process environment (for `$CREDENTIALS_DIRECTORY`).
    ///   - logger: The daemon's logger; access-log lines use its handler too.
    ///   - overrides: What a test or an embedding program replaces (transports, middleware, the
    ///     token cache).
    /// - Throws: ``ConfigurationProblems`` when a module cannot be bound, or a
    ///   ``ServiceGroupError`` naming the part that could not start (a port that cannot be bound).
    public static func start(
        configuration: DaemonConfiguration,
        environment: [String: String],
        logger: Logger,
        overrides: DaemonOverrides = DaemonOverrides()
    ) async throws -> Daemon {
        let readiness = Readiness()
        let metrics = Metrics()
        let services = ServiceGroup(logger: logger)
        do {
            let adminServer = HTTPServer(
                configuration: .init(host: configuration.adminHost, port: configuration.adminPort, threadCount: 1),
                handler: AdminAPI(readiness: readiness, metrics: metrics).makeRouter().handle
            )
            try await services.start(HTTPServerService(name: "admin server", server: adminServer))

            var sandbox: SandboxRuntime?
            let bindings: [String: UpstreamBinding]
            switch configuration.mode {
            case .live:
                bindings = try UpstreamBinding.live(configuration, environment: environment)
            case .sandbox:
                let runtime = SandboxRuntime(configuration: configuration, logger: logger)
                try await services.start(runtime)
                sandbox = runtime
                bindings = runtime.bindings(configuration)
            }

            // One group of loops for the app server and the transports its handlers call.
            let eventLoops = try EventLoopGroup(
                loopCount: configuration.threads ?? EventLoopGroup.defaultLoopCount, name: "http")
            try await services.start(EventLoopGroupService(eventLoops: eventLoops))
            let inUse = Set(bindings.values.map(\.transportInUse))
            let curl =
                inUse.contains(.curl) || inUse.contains(.http1)
                ? CurlTransport(configuration: .sized(forConcurrency: 256), eventLoops: eventLoops) : nil
            // libcurl takes what the HTTP/1.1 transport does not (https, calls off the loops).
            let http1 =
                inUse.contains(.http1)
                ? curl.map { HTTP1Transport(eventLoops: eventLoops, fallback: $0, logger: logger) } : nil
            if let http1 {
                metrics.addFallbackSource(transport: "http1") {
                    http1.fallbackCounts.map { (reason: $0.key.rawValue, count: $0.value) }
                }
            }
            let urlSession = inUse.contains(.urlsession) ? URLSessionTransport() : nil
            try await services.start(UpstreamTransports(curl: curl, http1: http1, urlSession: urlSession))
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
            let shared = try SharedStateStores(
                configuration: configuration, environment: environment, eventLoops: eventLoops, metrics: metrics,
                logger: logger, tokenCacheOverride: overrides.tokenCache)
            try await services.start(shared)
            let api = try AppAPI(
                modules: modules,
                tokenCache: shared.tokenCache,
                tokenTTL: configuration.tokenCacheSeconds,
                rateLimiter: RateLimiter(
                    settings: configuration.rateLimits, store: shared.rateLimitStore, health: shared.rateLimitHealth),
                trustedProxies: Set(configuration.trustedProxies),
                metrics: metrics
            )
            var accessLog = Logger(label: "swiftyd.access")
            accessLog.logLevel = logger.logLevel
            let appRouter = AppRouter(
                api: api, metrics: metrics, accessLog: accessLog, eventLoops: eventLoops,
                trustedProxies: Set(configuration.trustedProxies), maxInFlight: configuration.maxInFlight,
                requestDeadline: .milliseconds(configuration.requestDeadlineMilliseconds))
            let appServer = HTTPServer(
                configuration: .init(
                    host: configuration.host,
                    port: configuration.port,
                    threadCount: eventLoops.loops.count,
                    maxBodyBytes: configuration.maxBodyBytes,
                    maxHeaderBytes: configuration.maxHeaderBytes
                ),
                eventLoops: eventLoops,
                refusalObserver: appRouter.makeRefusalObserver(),
                handler: appRouter.makeHandler()
            )
            // Total connections at the global limit: not ready, so a balancer sends elsewhere.
            readiness.watchSaturation { appServer.connectionCount >= appServer.configuration.connectionLimit }
            try await services.start([
                HTTPServerService(name: "app server", server: appServer),
                ReadinessGate(
                    readiness: readiness, delay: .milliseconds(Int64(configuration.drainDelaySeconds * 1000))),
            ])
            return Daemon(
                configuration: configuration,
                readiness: readiness,
                metrics: metrics,
                sandbox: sandbox,
                services: services,
                appServer: appServer,
                adminServer: adminServer,
                logger: logger
            )
        } catch {
            // A part that failed to start has stopped the others already; this covers a step
            // between parts (binding the modules) that failed.
            await services.stop()
            throw error
        }
    }

    /// Stops taking work and finishes what is in flight: `/readyz` turns 503, the app server
    /// stops accepting and lets in-flight requests finish, then the transports, the sandbox and
    /// the admin server stop; all of it within the configuration's `drainSeconds`.
    public func drain() async {
        logger.notice("draining", metadata: ["in_flight": .string(String(appServer.inFlightCount))])
        await services.shutdown(gracePeriod: .milliseconds(Int64(configuration.drainSeconds * 1000)))
        logger.notice("stopped")
    }
}
