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
/// the event loops, the sandbox upstreams (sandbox mode), the shared state
/// (``SharedStateStores``: the Redis client, when configured), the upstream transports, the app
/// server, and last the readiness flag. The app server, the transports and the sandbox upstreams
/// share one `EventLoopGroup`, so a handler's upstream call runs on the handler's own thread.
/// ``drain()`` shuts them down in reverse order within `drainSeconds`.
public final class Daemon: Sendable {
    /// The configuration new requests are served with: the one read at start, or the last
    /// one a reload applied.
    public var configuration: DaemonConfiguration { generations.generation.configuration }
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
    private let generations: DaemonGenerations
    private let reloader: ConfigurationReloader
    private let appServer: HTTPServer
    private let adminServer: HTTPServer
    private let logger: Logger

    private init(
        generations: DaemonGenerations,
        reloader: ConfigurationReloader,
        readiness: Readiness,
        metrics: Metrics,
        sandbox: SandboxRuntime?,
        services: ServiceGroup,
        appServer: HTTPServer,
        adminServer: HTTPServer,
        logger: Logger
    ) {
        self.generations = generations
        self.reloader = reloader
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

            // One group of loops for the app server and the transports its handlers call: an
            // upstream call stays on its handler's thread. Sandbox upstreams run on a loop of
            // their own (``SandboxRuntime``), as remote upstreams would.
            let eventLoops = try EventLoopGroup(
                loopCount: configuration.threads ?? EventLoopGroup.defaultLoopCount, name: "http")
            try await services.start(EventLoopGroupService(eventLoops: eventLoops))
            var sandbox: SandboxRuntime?
            if configuration.mode == .sandbox {
                let runtime = SandboxRuntime(configuration: configuration, logger: logger)
                try await services.start(runtime)
                sandbox = runtime
            }
            // The Redis client (when configured) starts before the generations' transports and
            // stops after them; the stores it feeds outlive every reload.
            let shared = try SharedStateStores(
                configuration: configuration, environment: environment, eventLoops: eventLoops, metrics: metrics,
                logger: logger, tokenCacheOverride: overrides.tokenCache)
            try await services.start(shared)
            let builder = DaemonGeneration.Builder(
                environment: environment, sandbox: sandbox, eventLoops: eventLoops, metrics: metrics, logger: logger,
                overrides: overrides,
                tokenCache: shared.tokenCache,
                rateLimitStore: shared.rateLimitStore,
                rateLimitHealth: shared.rateLimitHealth)
            let generations = DaemonGenerations(
                first: try await builder.build(configuration, number: 1),
                retireWithin: .milliseconds(Int64(configuration.drainSeconds * 1000)), logger: logger)
            metrics.configurationLoaded()
            try await services.start(generations)
            var accessLog = Logger(label: "swiftyd.access")
            accessLog.logLevel = logger.logLevel
            let appRouter = AppRouter(
                generations: generations, metrics: metrics, accessLog: accessLog, eventLoops: eventLoops)
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
                generations: generations,
                reloader: ConfigurationReloader(
                    builder: builder, generations: generations, metrics: metrics, logger: logger),
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

    /// Reloads the configuration as at start with `arguments` (file, key and credential files
    /// re-read; the environment as given at start) and, when it is valid and changes no
    /// restart-only setting, serves new requests with it while requests in flight finish with
    /// the old one. See ``ConfigurationReloader``.
    /// - Returns: What was done; on a problem the running configuration is kept.
    public func reload(arguments: DaemonArguments) async -> ReloadOutcome {
        await reloader.reload(arguments: arguments)
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
