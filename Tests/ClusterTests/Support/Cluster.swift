import Foundation
import RedisTestSupport
import ServiceTesting

#if canImport(Glibc)
    import Glibc
#endif

/// The cluster of `Tools/cluster/run` for one test: nginx in front of two `swiftyd`, each in front
/// of its own sandbox set, all sharing one `redis-server` that the test owns (so it can stop and
/// restart it). Started from the built binaries beside the test bundle; stopped by ``stop()``.
final class Cluster: Sendable {
    /// The shared Redis.
    let redis: RedisServer
    /// The parts' addresses, pids and files, as the script wrote them.
    let state: [String: String]
    private let script: ChildProcess

    private init(redis: RedisServer, state: [String: String], script: ChildProcess) {
        self.redis = redis
        self.state = state
        self.script = script
    }

    /// The load balancer's base URL.
    var url: String { state["URL"] ?? "" }
    /// The keys directory every sandbox set and daemon reads.
    var keysDirectory: String { state["KEYS"] ?? "" }

    /// Daemon `number` (1 or 2): its app API's base URL.
    func daemonURL(_ number: Int) -> String { state["DAEMON_\(number)_APP"] ?? "" }
    /// Daemon `number`'s admin base URL.
    func adminURL(_ number: Int) -> String { state["DAEMON_\(number)_ADMIN"] ?? "" }
    /// Daemon `number`'s configuration file.
    func daemonConfiguration(_ number: Int) -> String { state["DAEMON_\(number)_CONFIG"] ?? "" }
    /// The base URL of `service` (`user`, `feed`, `payment`) in sandbox set `number`.
    func sandboxURL(_ number: Int, _ service: String) -> String {
        state["SANDBOX_\(number)_\(service.uppercased())"] ?? ""
    }

    /// Sends `signal` to daemon `number`.
    func signalDaemon(_ number: Int, _ signal: Int32) { send(signal, to: "DAEMON_\(number)_PID") }
    /// Sends `signal` to sandbox set `number`.
    func signalSandbox(_ number: Int, _ signal: Int32) { send(signal, to: "SANDBOX_\(number)_PID") }

    private func send(_ signal: Int32, to name: String) {
        guard let text = state[name], let pid = Int32(text), pid > 0 else { return }
        kill(pid, signal)
    }

    /// Starts Redis and the cluster, and waits (at most 120 s) until every part answers.
    /// - Parameters:
    ///   - rateLimits: The daemons' `rateLimits` object (JSON), or `nil` for the default.
    ///   - redisArguments: Extra `redis-server` arguments (`--appendonly yes` to keep data across
    ///     a restart).
    static func start(rateLimits: String? = nil, redisArguments: [String] = []) async throws -> Cluster {
        let redis = try await RedisServer.start(arguments: redisArguments)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cluster-\(UUID().uuidString.prefix(8))")
        let stateFile = work.path + ".state"
        var arguments = [
            "--bin", binaryDirectory, "--redis", "redis://127.0.0.1:\(redis.port ?? 0)/0", "--state", stateFile,
            "--work", work.path,
        ]
        if let rateLimits { arguments += ["--rate-limits", rateLimits] }
        let script: ChildProcess
        do {
            script = try ChildProcess(repositoryRoot + "/Tools/cluster/run", arguments: arguments, output: .merged)
        } catch {
            await redis.stop()
            throw error
        }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(120)
        while clock.now < deadline {
            let state = Self.readState(stateFile)
            if state["READY"] == "1" { return Cluster(redis: redis, state: state, script: script) }
            if script.termination != nil { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        script.signal(SIGTERM)
        _ = await script.waitForExitOrKill(timeout: .seconds(20))
        await redis.stop()
        throw ClusterError("the cluster did not become ready:\n\(script.standardOutput.suffix(3000))")
    }

    /// Stops the cluster (the script stops every part it started) and Redis, and removes the
    /// work directory.
    func stop() async {
        script.signal(SIGTERM)
        _ = await script.waitForExitOrKill(timeout: .seconds(30))
        await redis.stop()
        if let work = state["WORK"] {
            try? FileManager.default.removeItem(atPath: work)
            try? FileManager.default.removeItem(atPath: work + ".state")
        }
    }

    /// What the script printed (its own lines; the parts log to files in the work directory).
    var output: String { script.standardOutput }

    /// The last lines of a part's log in the work directory, for a failure message.
    func log(_ name: String) -> String {
        guard let work = state["WORK"], let text = try? String(contentsOfFile: work + "/" + name, encoding: .utf8)
        else { return "" }
        return String(text.suffix(4000))
    }

    /// Runs `body` with a cluster started for it, and stops the cluster afterwards.
    static func with(
        rateLimits: String? = nil, redisArguments: [String] = [], _ body: (Cluster) async throws -> Void
    ) async throws {
        let cluster = try await start(rateLimits: rateLimits, redisArguments: redisArguments)
        do {
            try await body(cluster)
            await cluster.stop()
        } catch {
            await cluster.stop()
            throw error
        }
    }

    /// Reads the script's `NAME=value` lines (values shell-quoted with backslashes).
    private static func readState(_ path: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var state: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            var value = ""
            var escaped = false
            for character in line[line.index(after: equals)...] {
                if !escaped && character == "\\" {
                    escaped = true
                    continue
                }
                escaped = false
                value.append(character)
            }
            state[String(line[..<equals])] = value
        }
        return state
    }

    /// The directory of the built executables (beside the test bundle).
    static var binaryDirectory: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// The repository's root (this file is Tests/ClusterTests/Support/Cluster.swift).
    static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }
}

/// Why a cluster did not start.
struct ClusterError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
