import AppLogging
public import Foundation
import HTTPServer
import RequestSigning

/// The user, feed and payment domain services of `docs/upstreams.md`, each on its own port,
/// sharing one seeded in-memory state: what the daemon calls in sandbox mode and what tests
/// run against.
///
/// Every request must carry an RFC 9421 signature made with that upstream's module key
/// (``SandboxKeys``); anything else gets 401 with a problem naming the failed check.
///
/// ```swift
/// let keys = try SandboxKeys.generate()
/// let sandbox = try await SandboxUpstreams.start(keys: keys)
/// let users = try UserClient(
///     domain: .sandbox(baseURL: sandbox.baseURLString(for: .user)), transport: transport,
///     middlewares: [SigningMiddleware(signer: RequestSigner(key: keys.user.signingKey))])
/// try sandbox.setFaults(FaultSettings(latency: .milliseconds(50)), for: .feed)
/// // ...
/// await sandbox.shutdown()
/// ```
public final class SandboxUpstreams: Sendable {
    /// The keys the upstreams verify with (and the daemon signs with).
    public let keys: SandboxKeys
    /// The configuration the upstreams were started with (ports as configured, not as bound).
    public let configuration: Configuration
    /// When the upstreams started (seeded posts are older, seeded tokens expire a day later).
    public let startedAt: Date

    private let servers: [SandboxService: HTTPServer]
    private let injectors: [SandboxService: FaultInjector]

    private init(
        keys: SandboxKeys,
        configuration: Configuration,
        startedAt: Date,
        servers: [SandboxService: HTTPServer],
        injectors: [SandboxService: FaultInjector]
    ) {
        self.keys = keys
        self.configuration = configuration
        self.startedAt = startedAt
        self.servers = servers
        self.injectors = injectors
    }

    /// Starts the three upstreams, seeded, each listening on its port.
    /// - Parameters:
    ///   - keys: One key per module; each upstream accepts only its module's.
    ///   - configuration: Host, ports, faults and limits.
    /// - Returns: The running upstreams; call ``shutdown(gracePeriod:)`` when done.
    /// - Throws: ``SandboxError``: `invalidConfiguration`, `invalidKey`, or `startFailed` when a
    ///   port cannot be bound (the upstreams already started are stopped again).
    public static func start(keys: SandboxKeys, configuration: Configuration = Configuration())
        async
        throws(SandboxError) -> SandboxUpstreams
    {
        try configuration.validate()
        let now = Date()
        let clock: @Sendable () -> Date = { Date() }
        let state = SandboxState.seeded(now: now, tokenLifetime: configuration.tokenLifetime)
        var servers: [SandboxService: HTTPServer] = [:]
        var injectors: [SandboxService: FaultInjector] = [:]
        for (index, service) in SandboxService.allCases.enumerated() {
            let injector = FaultInjector(
                settings: configuration.faults[service] ?? .none,
                seed: configuration.faultSeed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            let started = Result { () throws(SandboxError) -> HTTPServer in
                let server = try makeServer(
                    service, key: keys[service], state: state, injector: injector, configuration: configuration,
                    clock: clock)
                do throws(HTTPServerError) {
                    try server.start()
                } catch {
                    throw SandboxError(.startFailed, service: service, error.message)
                }
                return server
            }
            switch started {
            case .success(let server):
                servers[service] = server
                injectors[service] = injector
            case .failure(let error):
                for running in servers.values { await running.shutdown(gracePeriod: .zero) }
                throw error
            }
        }
        configuration.logger.info(
            "sandbox upstreams started",
            metadata: Dictionary(
                uniqueKeysWithValues: SandboxService.allCases.map { ("\($0)_port", "\(servers[$0]?.port ?? 0)") }))
        return SandboxUpstreams(
            keys: keys, configuration: configuration, startedAt: now, servers: servers, injectors: injectors)
    }

    private static func makeServer(
        _ service: SandboxService,
        key: SandboxKey,
        state: SandboxState,
        injector: FaultInjector,
        configuration: Configuration,
        clock: @escaping @Sendable () -> Date
    ) throws(SandboxError) -> HTTPServer {
        let gate: SignatureGate
        do {
            gate = try SignatureGate(
                key: key.signingKey, replayGuard: InMemoryReplayGuard(capacity: configuration.replayCapacity),
                clock: clock)
        } catch {
            throw SandboxError(.invalidKey, service: service, error.message)
        }
        let router =
            switch service {
            case .user: UserRoutes.router(state: state, clock: clock)
            case .feed: FeedRoutes.router(state: state, clock: clock)
            case .payment: PaymentRoutes.router(state: state, scope: key.tag, clock: clock)
            }
        var logger = configuration.logger
        logger[metadataKey: "upstream"] = .string(service.rawValue)
        let handler = UpstreamHandler(
            service: service, gate: configuration.verifiesSignatures ? gate : nil, faults: injector, router: router,
            logger: logger)
        let serverConfiguration = HTTPServer.Configuration(
            host: configuration.host,
            port: configuration.port(for: service),
            threadCount: configuration.threadCount,
            // Multipart posts may be 21 MiB; the routes apply the contract's limits below this.
            maxBodyBytes: service == .feed ? RequestBody.maximumMultipartBytes + 64 * 1024 : 1 << 20
        )
        do {
            try serverConfiguration.validate()
        } catch {
            throw SandboxError(.invalidConfiguration, service: service, error.message)
        }
        return HTTPServer(configuration: serverConfiguration, logger: logger, handler: handler.handle)
    }

    /// The port an upstream listens on (0 after shutdown).
    public func port(for service: SandboxService) -> Int {
        servers[service]?.port ?? 0
    }

    /// An upstream's base URL text, for example `http://127.0.0.1:41234` (IPv6 hosts in brackets).
    public func baseURLString(for service: SandboxService) -> String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port(for: service))"
    }

    /// An upstream's base URL.
    public func baseURL(for service: SandboxService) -> URL {
        URL(string: baseURLString(for: service)) ?? URL(fileURLWithPath: "/")
    }

    /// The faults an upstream injects now.
    public func faults(for service: SandboxService) -> FaultSettings {
        injectors[service]?.settings ?? .none
    }

    /// Changes the faults an upstream injects, from its next request on.
    /// - Throws: ``SandboxError`` with code `invalidConfiguration` for out-of-range settings.
    public func setFaults(_ faults: FaultSettings, for service: SandboxService) throws(SandboxError) {
        try faults.validate()
        injectors[service]?.settings = faults
    }

    /// Changes the faults of all three upstreams.
    /// - Throws: ``SandboxError`` with code `invalidConfiguration` for out-of-range settings.
    public func setFaults(_ faults: FaultSettings) throws(SandboxError) {
        try faults.validate()
        for injector in injectors.values { injector.settings = faults }
    }

    /// Stops the three upstreams: new connections are refused at once, requests in flight get
    /// up to `gracePeriod` to finish. Calling it again does nothing.
    public func shutdown(gracePeriod: Duration = .seconds(5)) async {
        await withTaskGroup(of: Void.self) { group in
            for server in servers.values {
                group.addTask { await server.shutdown(gracePeriod: gracePeriod) }
            }
        }
    }
}
