import Foundation

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
        let wrapper = URL(fileURLWithPath: "/usr/bin/timeout")
        let process = Process()
        if FileManager.default.isExecutableFile(atPath: wrapper.path) {
            process.executableURL = wrapper
            process.arguments = ["--kill-after=20", "\(seconds)", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "new-module-run-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice

        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        // `timeout(1)` is the first bound (it also stops the children); this loop is the second,
        // for machines without it: terminate a little after the limit, kill 10 s later.
        var terminatedAt: ContinuousClock.Instant?
        while process.isRunning {
            let now = clock.now
            if let terminatedAt {
                if now - terminatedAt > .seconds(10) {
                    kill(process.processIdentifier, SIGKILL)
                    break
                }
            } else if now - start > limit + .seconds(30) || Task.isCancelled {
                process.terminate()
                terminatedAt = now
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        process.waitUntilExit()
        try? handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let status = process.terminationStatus
        return Result(
            status: status,
            output: output,
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
