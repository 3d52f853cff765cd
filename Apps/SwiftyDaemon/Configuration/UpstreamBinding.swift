import Foundation
import RequestSigning
import SandboxUpstreams
import ServiceCore

/// How the daemon reaches one feature module's domain: where, with which key, over which
/// transport, within which timeout, with which resilience settings. Resolved at start-up from the sandbox or the configuration.
struct UpstreamBinding: Sendable {
    var module: String
    var baseURL: String
    var key: SigningKey
    var transport: DaemonConfiguration.TransportKind
    var timeout: Duration
    /// Retries, budget, breaker, concurrency limit and single-flight of the module's calls.
    var resilience = ResilienceSettings()

    /// The transport the module's calls go through: `auto` is `http1` for a cleartext `http`
    /// base URL and `curl` for anything else.
    var transportInUse: DaemonConfiguration.TransportKind {
        guard transport == .auto else { return transport }
        return baseURL.lowercased().hasPrefix("http://") ? .http1 : .curl
    }
}

extension UpstreamBinding {
    /// The default per-attempt timeout.
    static let defaultTimeout = Duration.milliseconds(5000)

    /// Resolves live-mode bindings for every routed module from the configuration, loading each
    /// key file. A registered module nothing calls is not bound, and needs no settings.
    /// - Parameters:
    ///   - configuration: The settings.
    ///   - environment: The process environment (for `$CREDENTIALS_DIRECTORY`).
    ///   - routed: The routed modules and their callers
    ///     (``FeatureModuleRegistry/routedModules(groups:)``).
    /// - Throws: ``ConfigurationProblems`` listing every routed module that cannot be bound.
    static func live(
        _ configuration: DaemonConfiguration,
        environment: [String: String],
        routed: [(name: String, callers: [String])] = FeatureModuleRegistry.routedModules()
    ) throws(ConfigurationProblems) -> [String: UpstreamBinding] {
        var bindings: [String: UpstreamBinding] = [:]
        var problems: [String] = []
        for (name, callers) in routed {
            guard let module = FeatureModuleRegistry.module(named: name) else { continue }
            let settings = configuration.modules[name] ?? .init()
            let prefix = "modules.\(name)"
            let reason = "(\(callers.joined(separator: ", ")) \(callers.count == 1 ? "calls" : "call") it)"
            guard let baseURL = settings.baseURL else {
                problems.append("\(prefix).baseURL is required in live mode \(reason)")
                continue
            }
            guard let keyFile = settings.keyFile else {
                problems.append("\(prefix).keyFile is required in live mode \(reason)")
                continue
            }
            do {
                let key = try SigningKey.load(
                    id: settings.keyID ?? module.keyID,
                    tag: module.tag,
                    fromFile: resolveCredential(keyFile, environment: environment)
                )
                bindings[name] = UpstreamBinding(
                    module: name,
                    baseURL: baseURL,
                    key: key,
                    transport: settings.transport ?? .auto,
                    timeout: settings.timeoutMilliseconds.map { .milliseconds($0) } ?? defaultTimeout,
                    resilience: settings.resilience
                )
            } catch {
                problems.append("\(prefix).keyFile: \(error)")
            }
        }
        guard problems.isEmpty else { throw ConfigurationProblems(problems: problems) }
        return bindings
    }

    /// A scripted sandbox upstream for every registered module the sandbox has no upstream of
    /// its own for, answering the route groups' scripted answers (``AppRouteGroup/sandboxAnswers``).
    /// - Throws: ``SandboxError`` for a module whose key id or tag cannot make a key.
    static func scriptedUpstreams(faults: FaultSettings) throws -> [ScriptedUpstream] {
        let handWritten = Set(SandboxService.allCases.map(\.moduleName))
        let answers = FeatureModuleRegistry.routeGroups.flatMap { $0.sandboxAnswers }
        return try FeatureModuleRegistry.modules.filter { !handWritten.contains($0.name) }.map { module in
            try ScriptedUpstream(
                module: module.name, keyID: module.keyID, tag: module.tag, answers: answers, faults: faults)
        }
    }

    /// A key file path: absolute as given; relative ones are looked up in
    /// `$CREDENTIALS_DIRECTORY` (systemd's `LoadCredential=`) first, then the working directory.
    static func resolveCredential(_ path: String, environment: [String: String]) -> String {
        guard !path.hasPrefix("/"), let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
            return path
        }
        let candidate = directory + "/" + path
        return FileManager.default.fileExists(atPath: candidate) ? candidate : path
    }
}

/// Every problem found in a configuration, one line each.
public struct ConfigurationProblems: Error, Sendable, CustomStringConvertible {
    /// The problems, each naming the setting.
    public var problems: [String]

    /// One problem per line.
    public var description: String { problems.joined(separator: "\n") }
}
