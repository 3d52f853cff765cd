import EventLoops
import Foundation
import Glibc
public import RedisClient
import ServiceTesting
import Synchronization

/// A `redis-server` (Debian's, `/usr/bin/redis-server`) of one test: in a temporary directory of
/// its own, on 127.0.0.1 at a free port (picked again when another process took it first) or on
/// a unix socket, saving nothing to disk. Stopped, and its directory removed, by ``stop()``.
public final class RedisServer: Sendable {
    /// Debian's server binary.
    public static let executable = "/usr/bin/redis-server"

    /// The directory it runs in.
    public let directory: String
    /// Its port, for a TCP server.
    public let port: Int?
    /// Its socket's path, for a unix socket server.
    public let socketPath: String?
    private let extraArguments: [String]
    private let process: Mutex<ChildProcess?>

    private init(directory: String, port: Int?, socketPath: String?, extraArguments: [String], process: ChildProcess) {
        self.directory = directory
        self.port = port
        self.socketPath = socketPath
        self.extraArguments = extraArguments
        self.process = Mutex(process)
    }

    /// Where clients connect.
    public var endpoint: RedisConfiguration.Endpoint {
        if let socketPath { return .unixSocket(path: socketPath) }
        return .tcp(host: "127.0.0.1", port: port ?? 0)
    }

    /// Starts a server; `arguments` are added to its command line (`--requirepass`, ...).
    ///
    /// - Parameter stablePort: Picks the port at random below the system's ephemeral range, which
    ///   the other tests' servers and clients never get from the system: a test that stops and
    ///   restarts its server on the same port then never finds another test's server there.
    public static func start(unixSocket: Bool = false, stablePort: Bool = false, arguments: [String] = []) async throws
        -> RedisServer
    {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("redis-test-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            return try await launchFirst(
                in: directory, unixSocket: unixSocket, stablePort: stablePort, arguments: arguments)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    private static func launchFirst(
        in directory: String, unixSocket: Bool, stablePort: Bool, arguments: [String]
    ) async throws -> RedisServer {
        if unixSocket {
            let path = directory + "/redis.sock"
            let process = try await launch(in: directory, port: 0, socketPath: path, arguments: arguments)
            return RedisServer(
                directory: directory, port: nil, socketPath: path, extraArguments: arguments, process: process)
        }
        var lastError: any Error = RedisServerError("no attempt")
        // A port found free may be taken by another test before redis binds it: try another.
        for _ in 0..<5 {
            let port =
                stablePort
                ? Int.random(in: 20_000..<min(32_000, ephemeralPortsStart())) : try ScriptedSocketServer.closedPort()
            do {
                let process = try await launch(in: directory, port: port, socketPath: nil, arguments: arguments)
                return RedisServer(
                    directory: directory, port: port, socketPath: nil, extraArguments: arguments, process: process)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// The first port of the system's ephemeral range (`ip_local_port_range`), 32768 if unknown.
    private static func ephemeralPortsStart() -> Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) }
        return max(20_001, first ?? 32_768)
    }

    /// Starts `redis-server` and waits (at most 10 s) until it accepts connections.
    private static func launch(
        in directory: String, port: Int, socketPath: String?, arguments: [String]
    ) async throws -> ChildProcess {
        var command = [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory,
            "--daemonize", "no", "--logfile", "",
        ]
        if let socketPath { command += ["--unixsocket", socketPath, "--unixsocketperm", "700"] }
        let process = try ChildProcess(executable, arguments: command + arguments, output: .merged)
        for _ in 0..<200 {
            if process.standardOutput.lowercased().contains("ready to accept connections") { return process }
            if process.termination != nil { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.signal(SIGKILL)
        _ = await process.waitForExit(timeout: .seconds(5))
        throw RedisServerError("redis-server did not start: \(process.standardOutput.suffix(600))")
    }

    /// Stops the server (SIGTERM, then SIGKILL after 10 s) and keeps its directory.
    public func kill() async {
        guard let process = self.process.withLock({ $0 }) else { return }
        process.signal(SIGTERM)
        _ = await process.waitForExitOrKill(timeout: .seconds(10))
        self.process.withLock { $0 = nil }
    }

    /// Starts the server again with the same port or socket and arguments (at most 10 tries,
    /// while the old socket is released).
    public func restart() async throws {
        var lastError: any Error = RedisServerError("no attempt")
        for _ in 0..<10 {
            do {
                let process = try await Self.launch(
                    in: directory, port: port ?? 0, socketPath: socketPath, arguments: extraArguments)
                self.process.withLock { $0 = process }
                return
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        throw lastError
    }

    /// Stops the server and removes its directory.
    public func stop() async {
        await kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `body` with a server started for it, and stops the server afterwards.
    public static func with(
        unixSocket: Bool = false, stablePort: Bool = false, arguments: [String] = [],
        _ body: (RedisServer) async throws -> Void
    ) async throws {
        let server = try await start(unixSocket: unixSocket, stablePort: stablePort, arguments: arguments)
        do {
            try await body(server)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }
}

/// Why a test's redis-server did not start.
public struct RedisServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

extension RedisServer {
    /// A client configuration for this server as tests want it: reconnecting within a few
    /// hundred milliseconds of a restart, and commands given 10 s (a loaded machine is slow).
    public var testConfiguration: RedisConfiguration {
        var configuration = RedisConfiguration(endpoint: endpoint)
        configuration.commandTimeout = .seconds(10)
        configuration.reconnectBackoff = .init(initial: .milliseconds(20), maximum: .milliseconds(200))
        return configuration
    }

    /// Runs `body` with a client of this server on loops of its own, and shuts both down
    /// afterwards.
    /// - Parameters:
    ///   - loopCount: The client's event loops.
    ///   - configure: Changes to ``testConfiguration``.
    public func withClient<T>(
        loopCount: Int = 1, configure: (inout RedisConfiguration) -> Void = { _ in },
        _ body: (RedisClient) async throws -> T
    ) async throws -> T {
        var configuration = testConfiguration
        configure(&configuration)
        let loops = try EventLoopGroup(loopCount: loopCount, name: "redis-test")
        let client = RedisClient(configuration: configuration, eventLoops: loops)
        do {
            let result = try await body(client)
            await client.shutdown()
            await loops.shutdown()
            return result
        } catch {
            await client.shutdown()
            await loops.shutdown()
            throw error
        }
    }
}
