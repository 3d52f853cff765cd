import Foundation
import ServiceCore

/// Validates a configuration completely, collecting every problem rather than stopping at the
/// first: `swiftyd --check-config` prints them all.
enum ConfigurationCheck {
    static func problems(in configuration: DaemonConfiguration, environment: [String: String]) -> [String] {
        var problems: [String] = configuration.rateLimits.problems
        if configuration.host.isEmpty { problems.append("host must not be empty") }
        if configuration.adminHost.isEmpty { problems.append("adminHost must not be empty") }
        if !(0...65535).contains(configuration.port) { problems.append("port \(configuration.port) is not 0-65535") }
        if !(0...65535).contains(configuration.adminPort) {
            problems.append("adminPort \(configuration.adminPort) is not 0-65535")
        }
        if configuration.port != 0 && configuration.port == configuration.adminPort
            && configuration.host == configuration.adminHost
        {
            problems.append("port and adminPort must differ")
        }
        if let threads = configuration.threads, !(1...256).contains(threads) {
            problems.append("threads \(threads) is not 1-256")
        }
        if !(1024...(64 << 20)).contains(configuration.maxBodyBytes) {
            problems.append("maxBodyBytes \(configuration.maxBodyBytes) is not 1024-67108864")
        }
        if !(1024...(64 << 10)).contains(configuration.maxHeaderBytes) {
            problems.append("maxHeaderBytes \(configuration.maxHeaderBytes) is not 1024-65536")
        }
        if !(configuration.drainSeconds > 0 && configuration.drainSeconds <= 600) {
            problems.append("drainSeconds \(configuration.drainSeconds) is not in (0, 600]")
        }
        for proxy in configuration.trustedProxies where !ClientAddress.isNumeric(proxy) {
            problems.append("trustedProxies entry \"\(proxy)\" is not a numeric IPv4 or IPv6 address")
        }
        if !(0...60).contains(configuration.drainDelaySeconds) {
            problems.append("drainDelaySeconds \(configuration.drainDelaySeconds) is not in [0, 60]")
        }
        if !(configuration.tokenCacheSeconds >= 0 && configuration.tokenCacheSeconds <= 3600) {
            problems.append("tokenCacheSeconds \(configuration.tokenCacheSeconds) is not 0-3600")
        }
        if !(1...600_000).contains(configuration.requestDeadlineMilliseconds) {
            problems.append("requestDeadlineMilliseconds \(configuration.requestDeadlineMilliseconds) is not 1-600000")
        }
        if !(1...1_000_000).contains(configuration.maxInFlight) {
            problems.append("maxInFlight \(configuration.maxInFlight) is not 1-1000000")
        }
        if LogSetup.level(configuration.logging.level) == nil {
            problems.append(
                "logging.level \"\(configuration.logging.level)\" is not one of trace, debug, info, notice, warning, error, critical"
            )
        }
        if !["json", "text"].contains(configuration.logging.format) {
            problems.append("logging.format \"\(configuration.logging.format)\" is not json or text")
        }
        if !(0...60_000).contains(configuration.sandbox.latencyMilliseconds) {
            problems.append("sandbox.latencyMilliseconds \(configuration.sandbox.latencyMilliseconds) is not 0-60000")
        }
        for (name, rate) in [
            ("errorRate", configuration.sandbox.errorRate), ("resetRate", configuration.sandbox.resetRate),
        ]
        where !(rate >= 0 && rate <= 1) {
            problems.append("sandbox.\(name) \(rate) is not 0-1")
        }
        problems += configuration.sharedState.problems(environment: environment)
        let known = Set(FeatureModuleRegistry.modules.map { $0.name })
        for name in configuration.modules.keys.sorted() where !known.contains(name) {
            problems.append(
                "modules.\(name) is not a registered module (known: \(known.sorted().joined(separator: ", ")))")
        }
        for (name, settings) in configuration.modules.sorted(by: { $0.key < $1.key }) where known.contains(name) {
            if let baseURL = settings.baseURL {
                do {
                    _ = try BaseURLValidator.validate(baseURL)
                } catch {
                    problems.append("modules.\(name).baseURL: \(error.description)")
                }
            }
            if let timeout = settings.timeoutMilliseconds, !(1...600_000).contains(timeout) {
                problems.append("modules.\(name).timeoutMilliseconds \(timeout) is not 1-600000")
            }
            problems += settings.credentials?.problems(prefix: "modules.\(name).credentials") ?? []
            problems += settings.resilienceProblems(prefix: "modules.\(name)")
        }
        if configuration.mode == .live {
            do {
                _ = try UpstreamBinding.live(configuration, environment: environment)
            } catch {
                // Base URL syntax was reported above; keep only the binding problems not yet listed.
                problems.append(contentsOf: error.problems.filter { !problems.contains($0) })
            }
        }
        do {
            _ = try CredentialMiddlewares(configuration: configuration, environment: environment)
        } catch {
            problems.append(contentsOf: error.problems.filter { !problems.contains($0) })
        }
        return problems
    }
}
