import AppLifecycle
import AppLogging
import Foundation

/// `swiftyd`'s whole run: parse, configure, start, wait for a signal, drain. The executable's
/// `@main` only calls ``run(arguments:environment:)``.
///
/// SIGTERM and SIGINT drain the daemon and end the run; SIGHUP reloads the configuration
/// (``Daemon/reload(arguments:)``), telling systemd `RELOADING=1` with `MONOTONIC_USEC` before
/// and `READY=1` with a `STATUS=` after, whether the reload was applied or not.
public enum DaemonCommand {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// Runs the daemon and returns the process exit code: 0 after a clean drain or a passing
    /// `--check-config`, 64 for a usage error, 78 for a configuration error, 70 when it could
    /// not start.
    public static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        let parsed: DaemonArguments
        do {
            parsed = try DaemonArguments(parsing: arguments)
        } catch {
            printError("swiftyd: \(error)\n\n\(DaemonArguments.usage)")
            return 64
        }
        if parsed.help {
            print(DaemonArguments.usage)
            return 0
        }
        if parsed.version {
            print("swiftyd \(version)")
            return 0
        }
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.load(arguments: parsed, environment: environment)
        } catch {
            printError("swiftyd: \(error)")
            return 78
        }
        let problems = ConfigurationCheck.problems(in: configuration, environment: environment)
        if parsed.checkConfig {
            if problems.isEmpty {
                print("configuration ok (\(configuration.mode.rawValue) mode)")
                return 0
            }
            printError("swiftyd: the configuration has \(problems.count) problem\(problems.count == 1 ? "" : "s"):")
            for problem in problems { printError("  - \(problem)") }
            return 78
        }
        guard problems.isEmpty else {
            printError("swiftyd: the configuration is not valid (run with --check-config for the list):")
            for problem in problems { printError("  - \(problem)") }
            return 78
        }

        var logger = Logger(label: "swiftyd")
        logger.logLevel = LogSetup.bootstrap(configuration.logging)
        logger.handler = LoggingSystem.makeHandler(label: "swiftyd")
        // Watched before anything starts, so a signal during start-up is handled once it is done.
        let signals = await UnixSignals([.terminate, .interrupt, .hangup])
        let notifier = SystemdNotifier(environment: environment)
        let daemon: Daemon
        do {
            daemon = try await Daemon.start(configuration: configuration, environment: environment, logger: logger)
        } catch {
            printError("swiftyd: could not start: \(error)")
            return 70
        }
        logger.notice(
            "ready",
            metadata: [
                "mode": .string(configuration.mode.rawValue),
                "app": .string("http://\(configuration.host):\(daemon.port)"),
                "admin": .string("http://\(configuration.adminHost):\(daemon.adminPort)"),
                "allocator": .string(AllocatorTuning.activeAllocator),
                "threads": .string(String(daemon.appThreadCount)),
            ]
        )
        // Written unbuffered, so a supervisor or test reading the pipe sees it at once.
        let banner = Banner.text(configuration: configuration, port: daemon.port, adminPort: daemon.adminPort)
        FileHandle.standardOutput.write(Data((banner + "\n").utf8))
        notifier.notify("READY=1")

        for await signal in signals {
            if signal == .hangup {
                logger.notice("signal received, reloading", metadata: ["signal": .string(signal.description)])
                notifier.notify("RELOADING=1\nMONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())")
                switch await daemon.reload(arguments: parsed) {
                case .applied(let generation):
                    notifier.notify("READY=1\nSTATUS=configuration \(generation) in use")
                case .kept(let problem):
                    notifier.notify("READY=1\nSTATUS=reload failed, previous configuration kept: \(problem)")
                }
                continue
            }
            logger.notice("signal received, draining", metadata: ["signal": .string(signal.description)])
            break
        }
        notifier.notify("STOPPING=1")
        await daemon.drain()
        return 0
    }

    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// What the daemon prints on standard output once ready.
enum Banner {
    static func text(configuration: DaemonConfiguration, port: Int, adminPort: Int) -> String {
        let app = "http://\(hostForURL(configuration.host)):\(port)"
        let admin = "http://\(hostForURL(configuration.adminHost)):\(adminPort)"
        var lines = [
            "swiftyd \(DaemonCommand.version) ready (\(configuration.mode.rawValue) mode)",
            "  app API:   \(app)",
            "  admin:     \(admin)/livez  \(admin)/readyz  \(admin)/metrics",
        ]
        if configuration.mode == .sandbox {
            lines += [
                "  sandbox bearer tokens: sandbox-alice, sandbox-bob, sandbox-carol",
                "  try:",
                "    curl -s -H 'Authorization: Bearer sandbox-alice' \(app)/v1/home",
            ]
        }
        return lines.joined(separator: "\n")
    }

    private static func hostForURL(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
