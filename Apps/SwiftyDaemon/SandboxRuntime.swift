import AppLogging
public import SandboxUpstreams

/// The sandbox upstreams as the daemon runs them in sandbox mode: started in process on
/// loopback with freshly generated keys, one per module.
public final class SandboxRuntime: Sendable {
    /// The running upstreams, for their ports, keys and fault settings.
    public let upstreams: SandboxUpstreams

    private init(upstreams: SandboxUpstreams) {
        self.upstreams = upstreams
    }

    /// Generates keys and starts the three upstreams on ephemeral loopback ports.
    static func start(configuration: DaemonConfiguration, logger: Logger) async throws -> SandboxRuntime {
        var settings = SandboxUpstreams.Configuration()
        settings.host = "127.0.0.1"
        settings.logger = logger
        let faults = FaultSettings(
            latency: .milliseconds(configuration.sandbox.latencyMilliseconds),
            errorRate: configuration.sandbox.errorRate,
            resetRate: configuration.sandbox.resetRate
        )
        for service in SandboxService.allCases { settings.faults[service] = faults }
        let upstreams = try await SandboxUpstreams.start(keys: try SandboxKeys.generate(), configuration: settings)
        return SandboxRuntime(upstreams: upstreams)
    }

    /// Each module bound to its sandbox upstream, signing with the sandbox's key for it; the
    /// transport and timeout come from the configuration as in live mode.
    func bindings(_ configuration: DaemonConfiguration) -> [String: UpstreamBinding] {
        var bindings: [String: UpstreamBinding] = [:]
        for service in SandboxService.allCases {
            let settings = configuration.modules[service.moduleName] ?? .init()
            bindings[service.moduleName] = UpstreamBinding(
                module: service.moduleName,
                baseURL: upstreams.baseURLString(for: service),
                key: upstreams.keys[service].signingKey,
                transport: settings.transport ?? .curl,
                timeout: settings.timeoutMilliseconds.map { .milliseconds($0) } ?? UpstreamBinding.defaultTimeout
            )
        }
        return bindings
    }

    func shutdown() async {
        await upstreams.shutdown(gracePeriod: .seconds(1))
    }
}
