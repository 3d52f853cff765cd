import AppLogging
public import SandboxUpstreams
import ServiceCore

/// The sandbox upstreams as the daemon runs them in sandbox mode: started in process on
/// loopback with freshly generated keys, one per module.
public final class SandboxRuntime: Sendable {
    /// The running upstreams, for their ports, keys and fault settings.
    public let upstreams: SandboxUpstreams

    private init(upstreams: SandboxUpstreams) {
        self.upstreams = upstreams
    }

    /// Generates keys and starts the upstreams on ephemeral loopback ports: the user, feed and
    /// payment ones, and a scripted one for every other registered module.
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
        let upstreams = try await SandboxUpstreams.start(
            keys: try SandboxKeys.generate(), configuration: settings,
            scripted: try UpstreamBinding.scriptedUpstreams(faults: faults))
        return SandboxRuntime(upstreams: upstreams)
    }

    /// Each registered module bound to its sandbox upstream, signing with the sandbox's key for
    /// it; the transport and timeout come from the configuration as in live mode.
    func bindings(_ configuration: DaemonConfiguration) -> [String: UpstreamBinding] {
        var bindings: [String: UpstreamBinding] = [:]
        for module in FeatureModuleRegistry.modules.map({ $0.name }) {
            guard let baseURL = upstreams.baseURLString(forModule: module),
                let key = upstreams.signingKey(forModule: module)
            else { continue }
            let settings = configuration.modules[module] ?? .init()
            bindings[module] = UpstreamBinding(
                module: module,
                baseURL: baseURL,
                key: key,
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
