public import AppLifecycle
import AppLogging
public import SandboxUpstreams
import ServiceCore
import Synchronization

/// The sandbox upstreams as the daemon runs them in sandbox mode: started in process on
/// loopback with freshly generated keys, one per module, on an event loop of their own; a part
/// of the daemon's ``ServiceGroup`` that starts before the transports and stops after them.
///
/// Their own loop (one thread) makes them behave as remote upstreams do: a call the daemon sends
/// is read at once, not after the rest of the work queued on the daemon's loop (a burst of
/// screens that one shared answer resumed), and their answers never hold the daemon's requests
/// up either.
public final class SandboxRuntime: LifecycleService {
    /// The part's name in logs and errors.
    public let name = "sandbox upstreams"

    private let configuration: DaemonConfiguration
    private let logger: Logger
    private let running = Mutex<SandboxUpstreams?>(nil)

    /// The running upstreams, for their ports, keys and fault settings; available once started.
    public var upstreams: SandboxUpstreams {
        guard let upstreams = running.withLock({ $0 }) else {
            preconditionFailure("the sandbox upstreams are read before they started")
        }
        return upstreams
    }

    init(configuration: DaemonConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Generates keys and starts the upstreams on ephemeral loopback ports, on their own loop:
    /// the user, feed and payment ones, and a scripted one for every other registered module.
    public func start() async throws {
        var settings = SandboxUpstreams.Configuration()
        settings.host = "127.0.0.1"
        settings.logger = logger
        // One thread: the sandbox's work is small beside the daemon's.
        settings.threadCount = 1
        let faults = Self.faults(configuration.sandbox)
        for service in SandboxService.allCases { settings.faults[service] = faults }
        let upstreams = try await SandboxUpstreams.start(
            keys: try SandboxKeys.generate(), configuration: settings,
            scripted: try UpstreamBinding.scriptedUpstreams(faults: faults))
        running.withLock { $0 = upstreams }
    }

    /// The faults the upstreams inject for the configuration's `sandbox` section.
    static func faults(_ settings: DaemonConfiguration.Sandbox) -> FaultSettings {
        FaultSettings(
            latency: .milliseconds(settings.latencyMilliseconds), errorRate: settings.errorRate,
            resetRate: settings.resetRate)
    }

    /// Lets the upstreams' in-flight requests finish, by `deadline` at the latest, and stops them.
    public func drain(until deadline: ContinuousClock.Instant) async {
        await running.withLock { $0 }?.shutdown(gracePeriod: max(.zero, deadline - .now))
    }

    /// Stops the upstreams at once.
    public func stop() async {
        await running.withLock { $0 }?.shutdown(gracePeriod: .zero)
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
                transport: settings.transport ?? .auto,
                timeout: settings.timeoutMilliseconds.map { .milliseconds($0) } ?? UpstreamBinding.defaultTimeout,
                resilience: settings.resilience
            )
        }
        return bindings
    }
}
