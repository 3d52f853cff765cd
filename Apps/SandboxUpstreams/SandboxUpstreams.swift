import AppLogging
import EventLoops
public import Foundation
import HTTPServer
import RedisClient
import RedisStores
public import RequestSigning

/// The user, feed and payment domain services of `docs/upstreams.md`, each on its own port,
/// sharing one seeded state, and a ``ScriptedUpstream`` for any other module: what the daemon
/// calls in sandbox mode and what tests run against. The state is in memory unless
/// ``Configuration/redis`` names a Redis, which then holds the payment ledger and the signature
/// nonces for every sandbox set that uses it.
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

    /// The scripted upstreams (``ScriptedUpstream``), by module name.
    public let scripted: [String: ScriptedUpstream]

    private let servers: [SandboxService: HTTPServer]
    /// Each upstream's signature check, whose trusted keys ``trust(_:)`` replaces.
    private let gates: [SandboxService: SignatureGate]
    private let injectors: [SandboxService: FaultInjector]
    private let scriptedServers: [String: (server: HTTPServer, injector: FaultInjector)]
    let tokenServer: (server: HTTPServer, injector: FaultInjector)
    let tokenIssuer: TokenIssuer
    /// The Redis client, when the configuration names a Redis.
    private let redis: SandboxRedis?
    /// The loops the servers run on when the sandbox made them (no
    /// ``Configuration/eventLoops`` given); stopped last.
    private let ownedLoops: EventLoopGroup?

    private init(
        keys: SandboxKeys,
        configuration: Configuration,
        startedAt: Date,
        servers: [SandboxService: HTTPServer],
        gates: [SandboxService: SignatureGate],
        injectors: [SandboxService: FaultInjector],
        scripted: [String: ScriptedUpstream],
        scriptedServers: [String: (server: HTTPServer, injector: FaultInjector)],
        tokenServer: (server: HTTPServer, injector: FaultInjector),
        tokenIssuer: TokenIssuer,
        redis: SandboxRedis?,
        ownedLoops: EventLoopGroup?
    ) {
        self.keys = keys
        self.configuration = configuration
        self.startedAt = startedAt
        self.servers = servers
        self.gates = gates
        self.injectors = injectors
        self.scripted = scripted
        self.scriptedServers = scriptedServers
        self.tokenServer = tokenServer
        self.tokenIssuer = tokenIssuer
        self.redis = redis
        self.ownedLoops = ownedLoops
    }

    /// Starts the three upstreams, seeded, each listening on its port, and the scripted
    /// upstreams on free ports.
    /// - Parameters:
    ///   - keys: One key per module; each upstream accepts only its module's.
    ///   - configuration: Host, ports, faults and limits.
    ///   - scripted: Upstreams of other modules, answering from scripted answers; none unless given.
    /// - Returns: The running upstreams; call ``shutdown(gracePeriod:)`` when done.
    /// - Throws: ``SandboxError``: `invalidConfiguration`, `invalidKey`, or `startFailed` when a
    ///   port cannot be bound or the configured Redis cannot be reached (what already started is
    ///   stopped again).
    public static func start(
        keys: SandboxKeys,
        configuration: Configuration = Configuration(),
        scripted: [ScriptedUpstream] = []
    )
        async
        throws(SandboxError) -> SandboxUpstreams
    {
        try configuration.validate()
        let eventLoops: EventLoopGroup
        let ownedLoops: EventLoopGroup?
        if let given = configuration.eventLoops {
            (eventLoops, ownedLoops) = (given, nil)
        } else {
            do {
                let made = try EventLoopGroup(loopCount: configuration.threadCount, name: "sandbox")
                (eventLoops, ownedLoops) = (made, made)
            } catch {
                throw SandboxError(.startFailed, "the network threads: \(error)")
            }
        }
        do throws(SandboxError) {
            return try await start(
                keys: keys, configuration: configuration, scripted: scripted, eventLoops: eventLoops,
                ownedLoops: ownedLoops)
        } catch {
            await ownedLoops?.shutdown()
            throw error
        }
    }

    /// ``start(keys:configuration:scripted:)`` on `eventLoops`; what it starts is stopped again
    /// when a part fails, except the loops.
    private static func start(
        keys: SandboxKeys,
        configuration: Configuration,
        scripted: [ScriptedUpstream],
        eventLoops: EventLoopGroup,
        ownedLoops: EventLoopGroup?
    ) async throws(SandboxError) -> SandboxUpstreams {
        let now = Date()
        let clock: @Sendable () -> Date = { Date() }
        let metrics = SandboxMetrics()
        var connected: SandboxRedis?
        if let redisConfiguration = configuration.redis {
            connected = try await SandboxRedis.start(
                redisConfiguration, keyPrefix: configuration.redisKeyPrefix,
                eventLoops: eventLoops, metrics: metrics)
        }
        let redis = connected
        let state = SandboxState.seeded(now: now, tokenLifetime: configuration.tokenLifetime, ledger: redis?.ledger)
        let issuer = TokenIssuer(
            clients: configuration.tokenClients, lifetime: configuration.accessTokenLifetime,
            required: configuration.accessTokenRequired, clock: clock)
        var servers: [SandboxService: HTTPServer] = [:]
        var gates: [SandboxService: SignatureGate] = [:]
        var injectors: [SandboxService: FaultInjector] = [:]
        for (index, service) in SandboxService.allCases.enumerated() {
            let injector = FaultInjector(
                settings: configuration.faults[service] ?? .none,
                seed: configuration.faultSeed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            do throws(SandboxError) {
                let made = try makeServer(
                    service, key: keys[service], state: state, injector: injector, issuer: issuer,
                    redis: redis, eventLoops: eventLoops, metrics: metrics, configuration: configuration, clock: clock)
                do throws(HTTPServerError) {
                    try made.server.start()
                } catch {
                    throw SandboxError(.startFailed, service: service, error.message)
                }
                servers[service] = made.server
                gates[service] = made.gate
                injectors[service] = injector
            } catch {
                for running in servers.values { await running.shutdown(gracePeriod: .zero) }
                await redis?.stop()
                throw error
            }
        }
        var scriptedServers: [String: (server: HTTPServer, injector: FaultInjector)] = [:]
        for (index, upstream) in scripted.enumerated() {
            let injector = FaultInjector(
                settings: upstream.faults,
                seed: configuration.faultSeed &+ UInt64(SandboxService.allCases.count + index) &* 0x9E37_79B9_7F4A_7C15)
            do throws(SandboxError) {
                guard scriptedServers[upstream.module] == nil else {
                    throw SandboxError(.invalidConfiguration, "two scripted upstreams for \(upstream.module)")
                }
                try upstream.faults.validate()
                let server = try makeScriptedServer(
                    upstream, injector: injector, eventLoops: eventLoops, replayStore: redis?.client, metrics: metrics,
                    configuration: configuration, clock: clock)
                do throws(HTTPServerError) {
                    try server.start()
                } catch {
                    throw SandboxError(.startFailed, "the \(upstream.module) upstream: \(error.message)")
                }
                scriptedServers[upstream.module] = (server, injector)
            } catch {
                for running in servers.values { await running.shutdown(gracePeriod: .zero) }
                for running in scriptedServers.values { await running.server.shutdown(gracePeriod: .zero) }
                await redis?.stop()
                throw error
            }
        }
        let tokenInjector = FaultInjector(
            settings: .none,
            seed: configuration.faultSeed &+ UInt64(SandboxService.allCases.count + scripted.count)
                &* 0x9E37_79B9_7F4A_7C15)
        let tokenServer = makeTokenServer(
            issuer: issuer, injector: tokenInjector, eventLoops: eventLoops, configuration: configuration)
        do throws(HTTPServerError) {
            try tokenServer.start()
        } catch {
            for running in servers.values { await running.shutdown(gracePeriod: .zero) }
            for running in scriptedServers.values { await running.server.shutdown(gracePeriod: .zero) }
            await redis?.stop()
            throw SandboxError(.startFailed, "the token endpoint: \(error.message)")
        }
        var ports = Dictionary(
            uniqueKeysWithValues: SandboxService.allCases.map { ("\($0)_port", "\(servers[$0]?.port ?? 0)") })
        for (module, running) in scriptedServers { ports["\(module)_port"] = "\(running.server.port)" }
        ports["token_port"] = "\(tokenServer.port)"
        configuration.logger.info("sandbox upstreams started", metadata: ports.mapValues { .string($0) })
        return SandboxUpstreams(
            keys: keys, configuration: configuration, startedAt: now, servers: servers, gates: gates,
            injectors: injectors,
            scripted: Dictionary(uniqueKeysWithValues: scripted.map { ($0.module, $0) }),
            scriptedServers: scriptedServers, tokenServer: (tokenServer, tokenInjector), tokenIssuer: issuer,
            redis: redis, ownedLoops: ownedLoops)
    }

    /// The token endpoint's server: no signature (clients authenticate with HTTP Basic), faults
    /// of its own, every request counted.
    private static func makeTokenServer(
        issuer: TokenIssuer, injector: FaultInjector, eventLoops: EventLoopGroup, configuration: Configuration
    ) -> HTTPServer {
        var logger = configuration.logger
        logger[metadataKey: "upstream"] = "token"
        let handler = UpstreamHandler(
            name: "token", gate: nil, faults: injector, eventLoops: eventLoops,
            router: TokenRoutes.router(issuer: issuer), logger: logger, metrics: nil)
        return HTTPServer(
            configuration: HTTPServer.Configuration(host: configuration.host, port: 0), eventLoops: eventLoops,
            logger: logger
        ) { request in
            issuer.countRequest()
            return await handler.handle(request)
        }
    }

    private static func makeScriptedServer(
        _ upstream: ScriptedUpstream,
        injector: FaultInjector,
        eventLoops: EventLoopGroup,
        replayStore: RedisClient?,
        metrics: SandboxMetrics,
        configuration: Configuration,
        clock: @escaping @Sendable () -> Date
    ) throws(SandboxError) -> HTTPServer {
        try makeServer(
            name: upstream.module, service: nil, key: upstream.key, router: ScriptedRoutes.router(upstream.answers),
            port: 0, maxBodyBytes: 1 << 20, injector: injector, eventLoops: eventLoops, replayStore: replayStore,
            metrics: metrics, configuration: configuration, clock: clock
        ).server
    }

    private static func makeServer(
        _ service: SandboxService,
        key: SandboxKey,
        state: SandboxState,
        injector: FaultInjector,
        issuer: TokenIssuer,
        redis: SandboxRedis?,
        eventLoops: EventLoopGroup,
        metrics: SandboxMetrics,
        configuration: Configuration,
        clock: @escaping @Sendable () -> Date
    ) throws(SandboxError) -> (server: HTTPServer, gate: SignatureGate) {
        let router =
            switch service {
            case .user: UserRoutes.router(state: state, clock: clock)
            case .feed: FeedRoutes.router(state: state, clock: clock)
            case .payment: PaymentRoutes.router(state: state, scope: key.tag, clock: clock)
            }
        return try makeServer(
            name: service.rawValue, service: service, key: key.signingKey, router: router,
            port: configuration.port(for: service),
            // Multipart posts may be 21 MiB; the routes apply the contract's limits below this.
            maxBodyBytes: service == .feed ? RequestBody.maximumMultipartBytes + 64 * 1024 : 1 << 20,
            injector: injector, eventLoops: eventLoops, replayStore: redis?.client, metrics: metrics,
            tokens: (issuer, service),
            configuration: configuration, clock: clock)
    }

    /// One upstream's server: its signature gate (nonces in Redis through `replayStore` when
    /// given), faults, routes, limits and `/metrics`, on `eventLoops`. Errors name the service,
    /// or the module of a scripted upstream.
    private static func makeServer(
        name: String,
        service: SandboxService?,
        key: SigningKey,
        router: Router,
        port: Int,
        maxBodyBytes: Int,
        injector: FaultInjector,
        eventLoops: EventLoopGroup,
        replayStore: RedisClient?,
        metrics: SandboxMetrics,
        tokens: (issuer: TokenIssuer, service: SandboxService)? = nil,
        configuration: Configuration,
        clock: @escaping @Sendable () -> Date
    ) throws(SandboxError) -> (server: HTTPServer, gate: SignatureGate) {
        func failure(_ code: SandboxError.Code, _ part: String, _ message: String) -> SandboxError {
            service.map { SandboxError(code, service: $0, message) }
                ?? SandboxError(code, "the \(name) \(part): \(message)")
        }
        // With Redis, every sandbox set sharing it refuses a nonce any of them saw, and the
        // upstream's own guard checks reads only while Redis cannot be asked; else each upstream
        // remembers its own, sized from the expected rate.
        let inMemoryGuard = InMemoryReplayGuard(capacity: configuration.effectiveReplayCapacity)
        let gate: SignatureGate
        do {
            if let replayStore {
                gate = try SignatureGate(
                    key: key,
                    replayGuard: RedisReplayGuard(
                        client: replayStore, keyPrefix: configuration.redisKeyPrefix + "replay:"),
                    outageGuard: inMemoryGuard, metrics: metrics, clock: clock)
            } else {
                gate = try SignatureGate(key: key, replayGuard: inMemoryGuard, metrics: metrics, clock: clock)
            }
        } catch {
            throw failure(.invalidKey, "key", error.message)
        }
        var logger = configuration.logger
        logger[metadataKey: "upstream"] = .string(name)
        let handler = UpstreamHandler(
            name: name, gate: configuration.verifiesSignatures ? gate : nil, faults: injector, eventLoops: eventLoops,
            router: router,
            logger: logger, metrics: { metrics.text(upstream: name, replayGuard: inMemoryGuard) }, tokens: tokens)
        let serverConfiguration = HTTPServer.Configuration(
            host: configuration.host, port: port, maxBodyBytes: maxBodyBytes)
        do {
            try serverConfiguration.validate()
        } catch {
            throw failure(.invalidConfiguration, "upstream", error.message)
        }
        let server = HTTPServer(
            configuration: serverConfiguration, eventLoops: eventLoops, logger: logger, handler: handler.handle)
        return (server, gate)
    }

    /// Makes each upstream trust exactly the ring's keys from its next request on: a key
    /// rotation adds the new key beside the old, then retires the old. Requests being verified
    /// finish with the keys they started with; each upstream keeps its replay guard, so a nonce
    /// seen before is still refused.
    ///
    /// The keys the sandbox reports (``keys``, ``signingKey(forModule:)``) stay those it started
    /// with.
    /// - Throws: ``SandboxError`` with code `invalidKey` when an upstream's keys cannot form a
    ///   key ring; no upstream's keys are then changed.
    public func trust(_ ring: SandboxKeyRing) throws(SandboxError) {
        var verifiers: [(SignatureGate, SwappableVerifier.Verifiers)] = []
        for service in SandboxService.allCases {
            guard let gate = gates[service] else { continue }
            do throws(SigningError) {
                verifiers.append((gate, try gate.verifier(trusting: ring[service].map(\.signingKey))))
            } catch {
                throw SandboxError(.invalidKey, service: service, error.message)
            }
        }
        for (gate, verifier) in verifiers { gate.verifiers.install(verifier) }
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

    /// The base URL text of the upstream a module calls, hand-written or scripted, or `nil`
    /// when the sandbox runs none for it.
    public func baseURLString(forModule module: String) -> String? {
        if let service = SandboxService.allCases.first(where: { $0.moduleName == module }) {
            return baseURLString(for: service)
        }
        guard let running = scriptedServers[module] else { return nil }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(running.server.port)"
    }

    /// The key a module signs with for its sandbox upstream, hand-written or scripted, or `nil`.
    public func signingKey(forModule module: String) -> SigningKey? {
        if let service = SandboxService.allCases.first(where: { $0.moduleName == module }) {
            return keys[service].signingKey
        }
        return scripted[module]?.key
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

    /// Changes the faults of every upstream, the scripted ones included.
    /// - Throws: ``SandboxError`` with code `invalidConfiguration` for out-of-range settings.
    public func setFaults(_ faults: FaultSettings) throws(SandboxError) {
        try faults.validate()
        for injector in injectors.values { injector.settings = faults }
        for running in scriptedServers.values { running.injector.settings = faults }
    }

    /// Stops every upstream: new connections are refused at once, requests in flight get up to
    /// `gracePeriod` to finish. Calling it again does nothing.
    public func shutdown(gracePeriod: Duration = .seconds(5)) async {
        await withTaskGroup(of: Void.self) { group in
            for server in servers.values {
                group.addTask { await server.shutdown(gracePeriod: gracePeriod) }
            }
            for running in scriptedServers.values {
                group.addTask { await running.server.shutdown(gracePeriod: gracePeriod) }
            }
            group.addTask { await self.tokenServer.server.shutdown(gracePeriod: gracePeriod) }
        }
        // The Redis client and the loops served the servers: they stop after them.
        await redis?.stop()
        await ownedLoops?.shutdown()
    }
}
