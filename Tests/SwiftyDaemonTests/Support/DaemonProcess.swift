import Foundation
import ServiceTesting

#if canImport(Glibc)
    import Glibc
#endif

/// The built `swiftyd` binary run as a child process on loopback ports chosen by the kernel.
///
/// Starting waits (at most 60 s) for the banner and reads the bound ports from it. The process
/// is killed when the value is released, so a failing test never leaves one behind.
final class DaemonProcess: Sendable {
    let port: Int
    let adminPort: Int
    private let child: ChildProcess

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var adminURL: String { "http://127.0.0.1:\(adminPort)" }
    var pid: Int32 { child.pid }

    /// Everything the process wrote to standard output and error so far.
    var log: String { child.standardOutput }

    /// The built executable beside the test bundle.
    static var executable: URL {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return bundle.appendingPathComponent("swiftyd")
    }

    /// - Parameters:
    ///   - launcher: A command that runs the daemon (its path, then its arguments; the daemon's
    ///     path and arguments follow), such as `taskset -c 0`; empty to run it directly.
    ///   - portFlags: Whether to pass `--port 0 --admin-port 0`; without them the configuration
    ///     file must pick the ports (0 for free ones).
    static func start(
        arguments: [String] = [], environment: [String: String] = [:], launcher: [String] = [], portFlags: Bool = true
    ) async throws -> DaemonProcess {
        let daemonArguments = (portFlags ? ["--port", "0", "--admin-port", "0"] : []) + arguments
        let child = try ChildProcess(
            launcher.first ?? executable.path,
            arguments: launcher.isEmpty ? daemonArguments : launcher.dropFirst() + [executable.path] + daemonArguments,
            // No drain delay unless a test asks for one: SIGTERM stops the daemon at once.
            environment: ChildProcess.environment(
                overriding: ["SWIFTY_DRAIN_DELAY_SECONDS": "0"].merging(environment) { $1 }, removing: ["NOTIFY_SOCKET"]
            ),
            output: .merged)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while clock.now < deadline {
            if let ports = Self.ports(in: child.standardOutput) {
                return DaemonProcess(child: child, port: ports.app, adminPort: ports.admin)
            }
            guard child.termination == nil else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        child.signal(SIGTERM)
        throw DaemonProcessError(message: "swiftyd did not print its banner; output:\n\(child.standardOutput)")
    }

    /// Writes `json` to a fresh temporary file and returns its path, for `--config`.
    static func configurationFile(_ json: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftyd-\(UUID()).json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    private init(child: ChildProcess, port: Int, adminPort: Int) {
        self.child = child
        self.port = port
        self.adminPort = adminPort
    }

    /// Sends a signal to the daemon.
    func signal(_ number: Int32) {
        child.signal(number)
    }

    /// Waits for the process to exit (at most `limit`) and returns its status, or `nil` if it
    /// is still running (it is then killed).
    func waitForExit(limit: Duration) async -> Int32? {
        await child.waitForExitOrKill(timeout: limit)?.status
    }

    private static func ports(in text: String) -> (app: Int, admin: Int)? {
        func port(after marker: String) -> Int? {
            guard let range = text.range(of: marker) else { return nil }
            let digits = text[range.upperBound...].prefix { $0.isNumber }
            return Int(digits)
        }
        guard let app = port(after: "app API:   http://127.0.0.1:"),
            let admin = port(after: "admin:     http://127.0.0.1:")
        else { return nil }
        return (app, admin)
    }
}

struct DaemonProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
