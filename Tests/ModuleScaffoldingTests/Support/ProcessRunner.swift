import Foundation
import ServiceTesting

/// Runs programs for the tests that drive the built binary and a nested build, with a deadline.
enum ProcessRunner {
    /// How a run ended and what it printed (standard output and error, interleaved).
    struct Result: Sendable {
        var status: Int32
        var output: String
        var timedOut: Bool
        var duration: Duration
    }

    /// Runs `executable` with `arguments` in `directory`, killing it (and, through `timeout(1)`, its
    /// children) when it outlives `limit`.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL, limit: Duration) async throws
        -> Result
    {
        let seconds = Int(limit.components.seconds)
        let wrapper = "/usr/bin/timeout"
        let command =
            FileManager.default.isExecutableFile(atPath: wrapper)
            ? (path: wrapper, arguments: ["--kill-after=20", "\(seconds)", executable.path] + arguments)
            : (path: executable.path, arguments: arguments)

        let clock = ContinuousClock()
        let start = clock.now
        let child = try ChildProcess(
            command.path, arguments: command.arguments, workingDirectory: directory.path, output: .merged)
        // `timeout(1)` is the first bound (it also stops the children); these waits are the second,
        // for machines without it: terminate a little after the limit (or when the test is
        // cancelled), kill 10 s later. The later waits run in a task of their own, which a
        // cancelled test does not cut short.
        var termination = await child.waitForExit(timeout: limit + .seconds(30))
        for signal in [SIGTERM, SIGKILL] where termination == nil {
            child.signal(signal)
            termination = await Task { await child.waitForExit(timeout: .seconds(10)) }.value
        }
        // Still not reaped 10 s after SIGKILL: reported as killed.
        let status = termination?.status ?? 128 + SIGKILL
        return Result(
            status: status,
            output: child.standardOutput,
            timedOut: status == 124 || status == 137,
            duration: clock.now - start
        )
    }

    /// The first executable named `name` on `PATH`.
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// The `new-module` binary built beside the running test bundle.
    static func newModuleBinary() -> URL? {
        let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidates = [
            running.deletingLastPathComponent().appendingPathComponent("new-module"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("new-module"),
            Bundle.main.bundleURL.appendingPathComponent("new-module"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
