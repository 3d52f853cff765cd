public import AppLogging
import CurlTransport
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
/// ``start(configuration:environment:logger:)`` is the composition root; ``drain()`` stops
/// everything in reverse order.
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
    public var appThreadCount: Int { appServer.configuration.threadCount }
    /// The sandbox's upstreams when running in sandbox mode.
    public let sandbox: SandboxRuntime?

    private let appServer: HTTPServer
    private let adminServer: HTTPServer
    private let curl: CurlTransport?
    private let http1: HTTP1Transport?
    private let urlSession: URLSessionTransport?
    private let logger: Logger

    private init(
        configuration: DaemonConfiguration,
        readiness: Readiness,
        metrics: Metrics,
        sandbox: SandboxRuntime?,
        appServer: HTTPServer,
        adminServer: HTTPServer,
        curl: CurlTransport?,
        http1: HTTP1Transport?,
        urlSession: URLSessionTransport?,
        logger: Logger
    ) {
        self.configuration = configuration
        self.readiness = readiness
        self.metrics = metrics
        self.sandbox = sandbox
        self.appServer = appServer
        self.adminServer = adminServer
        self.curl = curl
        self.http1 = http1
        self.urlSession = urlSession
        self.logger = logger
    }

    /// Builds and starts the daemon; it is ready (``Readiness/State/ready``) when this returns.
    /// - Parameters:
    ///   - configuration: Validated settings.
    ///   - environment: The process environment (for `$CREDENTIALS_DIRECTORY`).
    ///   - logger: The daemon's logger; access-log lines use its handler too.
    /// - Throws: ``ConfigurationProblems`` when a module cannot be bound, or the server's
    ///   error when a port cannot be bound.
    public static func start(
        configuration: DaemonConfiguration,
        environment: [String: String],
        logger: Logger,
        overrides: DaemonOverrides = DaemonOverrides()
    ) async throws -> Daemon {
        let readiness = Readiness()
        let metrics = Metrics()
        // What has started so far, stopped in reverse order if a later step fails.
        var started: [@Sendable () async -> Void] = []
        do {
            let adminServer = HTTPServer(
                configuration: .init(host: configuration.adminHost, port: configuration.adminPort, threadCount: 1),
                handler: AdminAPI(readiness: readiness, metrics: metrics).makeRouter().handle
            )
            try adminServer.start()
            started.append { await adminServer.shutdown(gracePeriod: .zero) }

            var sandbox: SandboxRuntime?
            let bindings: [String: UpstreamBinding]
            switch configuration.mode {
            case .live:
                bindings = try UpstreamBinding.live(configuration, environment: environment)
            case .sandbox:
                let runtime = try await SandboxRuntime.start(configuration: configuration, logger: logger)
                started.append { await runtime.shutdown() }
                sandbox = runtime
                bindings = runtime.bindings(configuration)
            }

            let curl =
                bindings.values.contains { $0.transport == .curl || $0.transport == .http1 }
                ? CurlTransport(configuration: .sized(forConcurrency: 256)) : nil
            // libcurl takes what the HTTP/1.1 transport does not (https, calls off a server thread).
            let http1 =
                bindings.values.contains { $0.transport == .http1 } ? curl.map { HTTP1Transport(fallback: $0) } : nil
            let urlSession = bindings.values.contains { $0.transport == .urlsession } ? URLSessionTransport() : nil
            started.append {
                await http1?.shutdown()
                await curl?.shutdown()
                urlSession?.shutdown()
            }
            let modules = ModuleClientFactory(
                bindings: bindings,
                curl: curl,
                http1: http1,
                urlSession: urlSession,
                metrics: metrics,
                logger: logger,
                overrides: overrides
            )
            let api = try AppAPI(
                modules: modules,
                tokenCache: overrides.tokenCache ?? InMemoryTokenCache(),
                tokenTTL: configuration.tokenCacheSeconds
            )
            var accessLog = Logger(label: "swiftyd.access")
            accessLog.logLevel = logger.logLevel
            let appServer = HTTPServer(
                configuration: .init(
                    host: configuration.host,
                    port: configuration.port,
                    threadCount: configuration.threads ?? HTTPServer.Configuration.defaultThreadCount,
                    maxBodyBytes: configuration.maxBodyBytes,
                    maxHeaderBytes: configuration.maxHeaderBytes
                ),
                handler: AppRouter(api: api, metrics: metrics, accessLog: accessLog).makeHandler()
            )
            try appServer.start()
            readiness.set(.ready)
            return Daemon(
                configuration: configuration,
                readiness: readiness,
                metrics: metrics,
                sandbox: sandbox,
                appServer: appServer,
                adminServer: adminServer,
                curl: curl,
                http1: http1,
                urlSession: urlSession,
                logger: logger
            )
        } catch {
            for stop in started.reversed() { await stop() }
            throw error
        }
    }

    /// Stops taking work and finishes what is in flight: `/readyz` turns 503, the app server
    /// stops accepting and lets in-flight requests finish within the configuration's drain
    /// time, then the transports, the sandbox and the admin server stop.
    public func drain() async {
        readiness.set(.draining)
        let grace = Duration.milliseconds(Int64(configuration.drainSeconds * 1000))
        logger.notice("draining", metadata: ["in_flight": .string(String(appServer.inFlightCount))])
        await appServer.shutdown(gracePeriod: grace)
        await http1?.shutdown(gracePeriod: .seconds(1))
        await curl?.shutdown(gracePeriod: .seconds(1))
        urlSession?.shutdown()
        await sandbox?.shutdown()
        await adminServer.shutdown(gracePeriod: .seconds(1))
        logger.notice("stopped")
    }
}
