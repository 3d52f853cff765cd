import Foundation
import ServiceTesting

/// `swiftyd` in sandbox mode (no configuration) on loopback ports chosen by the kernel, started
/// exactly as the README says, `Tools/dev/swifty-dev run --port 0 --admin-port 0` (which builds
/// the daemon if needed and then becomes it).
final class SandboxDaemon: Sendable {
    /// The app API's port, read from the banner.
    let port: Int
    private let child: ChildProcess

    /// Everything the daemon printed so far.
    var log: String { child.standardOutput }

    private init(child: ChildProcess, port: Int) {
        self.child = child
        self.port = port
    }

    /// Runs `Tools/dev/swifty-dev run` in the repository at `directory` and waits, at most
    /// `limit`, for the daemon's banner.
    /// - Throws: ``ChildProcessError`` when it cannot start; ``SandboxDaemonError`` with its
    ///   output when it prints no banner in time.
    static func start(in directory: URL, limit: Duration) async throws -> SandboxDaemon {
        let child = try ChildProcess(
            "/bin/bash",
            arguments: [
                directory.appendingPathComponent("Tools/dev/swifty-dev").path, "run", "--port", "0", "--admin-port",
                "0",
            ],
            environment: ChildProcess.environment(overriding: [:], removing: ["NOTIFY_SOCKET", "SWIFTY_CONFIG"]),
            workingDirectory: directory.path,
            output: .merged
        )
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while clock.now < deadline {
            if let port = Self.port(in: child.standardOutput) { return SandboxDaemon(child: child, port: port) }
            guard child.termination == nil else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        _ = await child.waitForExitOrKill(timeout: .zero)
        throw SandboxDaemonError(output: child.standardOutput)
    }

    /// Stops the daemon: SIGTERM, then SIGKILL after 10 s.
    func stop() {
        child.signal(SIGTERM)
        if child.waitUntilExit(timeout: .seconds(10)) == nil { child.signal(SIGKILL) }
    }

    private static func port(in banner: String) -> Int? {
        guard let range = banner.range(of: "app API:   http://127.0.0.1:") else { return nil }
        return Int(banner[range.upperBound...].prefix { $0.isNumber })
    }
}

/// `swiftyd` printed no banner in time.
struct SandboxDaemonError: Error, CustomStringConvertible {
    /// What it printed.
    var output: String

    var description: String { "swiftyd did not print its banner; output:\n\(output)" }
}
