import AppLogging
import Foundation
import SandboxUpstreams

/// Re-reads the configuration (the file, key files and credential files; the environment and
/// flags as given at start), checks it as `--check-config` does, builds a new
/// ``DaemonGeneration`` from it aside and swaps it in for new requests; on any problem the
/// running generation stays and one log line names the problem.
///
/// A change to a setting the running daemon cannot take without a restart
/// (``restartOnlySettings``) refuses the whole reload, so that what runs is always one
/// configuration file as a whole, never a mix. An actor, so that reloads never overlap.
actor ConfigurationReloader {
    /// The settings a reload cannot change: the listening sockets, the thread count, the mode
    /// and what is built once at start. Each names its configuration field.
    static let restartOnlySettings:
        [(field: String, differs: @Sendable (DaemonConfiguration, DaemonConfiguration) -> Bool)] = [
            ("mode", { $0.mode != $1.mode }),
            ("host", { $0.host != $1.host }),
            ("port", { $0.port != $1.port }),
            ("adminHost", { $0.adminHost != $1.adminHost }),
            ("adminPort", { $0.adminPort != $1.adminPort }),
            ("threads", { $0.threads != $1.threads }),
            ("maxBodyBytes", { $0.maxBodyBytes != $1.maxBodyBytes }),
            ("maxHeaderBytes", { $0.maxHeaderBytes != $1.maxHeaderBytes }),
            ("drainSeconds", { $0.drainSeconds != $1.drainSeconds }),
            ("drainDelaySeconds", { $0.drainDelaySeconds != $1.drainDelaySeconds }),
            ("logging", { $0.logging != $1.logging }),
            ("rateLimits.storeCapacity", { $0.rateLimits.storeCapacity != $1.rateLimits.storeCapacity }),
            // The Redis client and the stores it feeds are made once, at start.
            ("sharedState", { $0.sharedState != $1.sharedState }),
        ]

    private let builder: DaemonGeneration.Builder
    private let generations: DaemonGenerations
    private let metrics: Metrics
    private let logger: Logger
    private var loaded = 1

    init(builder: DaemonGeneration.Builder, generations: DaemonGenerations, metrics: Metrics, logger: Logger) {
        self.builder = builder
        self.generations = generations
        self.metrics = metrics
        self.logger = logger
    }

    /// The restart-only fields whose values differ between `running` and `next`.
    static func restartOnlyChanges(from running: DaemonConfiguration, to next: DaemonConfiguration) -> [String] {
        restartOnlySettings.filter { $0.differs(running, next) }.map(\.field)
    }

    /// Loads the configuration the way the daemon did at start, with these arguments, and
    /// applies it when it is valid and changes no restart-only setting.
    func reload(arguments: DaemonArguments) async -> ReloadOutcome {
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.load(arguments: arguments, environment: builder.environment)
        } catch {
            return kept(error.description)
        }
        let problems = ConfigurationCheck.problems(in: configuration, environment: builder.environment)
        guard problems.isEmpty else {
            return kept(problems.joined(separator: "; "))
        }
        let running = generations.generation.configuration
        let changed = Self.restartOnlyChanges(from: running, to: configuration)
        guard changed.isEmpty else {
            return kept(
                "\(changed.joined(separator: ", ")) cannot change without a restart; nothing of the reload was applied")
        }
        let next: DaemonGeneration
        do {
            next = try await builder.build(configuration, number: loaded + 1)
        } catch {
            return kept("\(error)")
        }
        loaded += 1
        generations.replace(with: next)
        if let sandbox = builder.sandbox, configuration.sandbox != running.sandbox {
            // Checked above: the rates are in 0-1 and the latency in range.
            try? sandbox.upstreams.setFaults(SandboxRuntime.faults(configuration.sandbox))
        }
        metrics.configReloads.increment(LabelValues("success"))
        metrics.configurationLoaded()
        logger.notice("configuration reloaded", metadata: ["generation": .string(String(next.number))])
        return .applied(generation: next.number)
    }

    private func kept(_ problem: String) -> ReloadOutcome {
        // One line in the log and in systemd's STATUS=.
        let problem = problem.replacingOccurrences(of: "\n", with: "; ")
        metrics.configReloads.increment(LabelValues("failure"))
        logger.error(
            "configuration reload failed, running configuration kept",
            metadata: ["problem": .string(problem), "generation": .string(String(loaded))])
        return .kept(problem: problem)
    }
}
