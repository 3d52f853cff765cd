import EventLoops
import Foundation
import Glibc
import HTTPTypes
import RedisClient
import RedisStores
import RequestSigning
import ServiceCore
import Synchronization

/// Verification with the Redis replay guard against the in-memory one (issue 19): the same
/// signed requests, many in flight at once, verified by one verifier per guard, in interleaved
/// rounds. Reports per request the wall time, the process's CPU time (the Redis client's loop
/// thread included) and redis-server's CPU time, and requests per second, with the ratios.
enum ReplayRedisBenchmark {
    struct Options {
        var port = 6379
        var requests = 20_000
        var rounds = 5
        var concurrency = 64
        var connections = 16
        var redisPID: Int32?
    }

    /// One round of one guard.
    struct Sample {
        var wallNanoseconds: Double
        var processCPUNanoseconds: Double
        var redisCPUNanoseconds: Double
    }

    static let usage = """
        usage: swifty-bench replay-redis --port P [--requests N] [--rounds N] [--concurrency N]
                                         [--connections N] [--redis-pid PID]
        """

    static func run(_ arguments: [String]) async -> Int32 {
        guard let options = parse(arguments) else {
            print(usage)
            return 64
        }
        do {
            try await measure(options)
            return 0
        } catch {
            print("replay-redis benchmark failed: \(error)")
            return 1
        }
    }

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var index = 0
        while index < arguments.count {
            guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else { return nil }
            switch arguments[index] {
            case "--port": options.port = value
            case "--requests": options.requests = value
            case "--rounds": options.rounds = value
            case "--concurrency": options.concurrency = value
            case "--connections": options.connections = value
            case "--redis-pid": options.redisPID = Int32(value)
            default: return nil
            }
            index += 2
        }
        return options
    }

    static func measure(_ options: Options) async throws {
        let secret = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        let key = try SigningKey(id: "user-2026-11", tag: "UserModule", secret: secret)
        let signer = try RequestSigner(key: key)
        let request = HTTPRequest(
            method: .get,
            url: URL(
                string: "https://api.example.com/v1/users/42/feed?limit=20&cursor=eyJpZCI6MTIzNH0&fields=id%2Cname")!,
            headers: ["Accept": "application/json", "User-Agent": "swiftyd/1.0", "X-Request-ID": "7f0c2a9e-41d4"])

        let loops = try EventLoopGroup(loopCount: 1, name: "bench-redis")
        var configuration = RedisConfiguration(endpoint: .tcp(host: "127.0.0.1", port: options.port))
        configuration.maximumConnectionsPerLoop = options.connections
        configuration.maximumWaitersPerLoop = max(1_024, options.concurrency)
        configuration.commandTimeout = .seconds(10)
        let client = RedisClient(configuration: configuration, eventLoops: loops)
        _ = try await client.send(["FLUSHDB"])

        let ring = try KeyRing([key])
        let window = SignatureVerifier.Configuration().replayWindow
        let verifiers = [
            (
                "in-memory",
                SignatureVerifier(
                    keyRing: ring,
                    replayGuard: InMemoryReplayGuard(
                        expectedRequestsPerSecond: Double(options.requests), window: window))
            ),
            ("Redis", SignatureVerifier(keyRing: ring, replayGuard: RedisReplayGuard(client: client))),
        ]

        print(
            "replay-redis benchmark: GET verified with the in-memory and the Redis replay guard, \(options.rounds)"
                + " interleaved rounds of \(options.requests) requests each, \(options.concurrency) in flight;"
                + " Redis client: 1 loop, at most \(options.connections) connections (calls share them, written"
                + " without waiting for earlier replies); redis-server on 127.0.0.1:\(options.port); medians"
        )
        // Warm-up: connections opened, code paths touched.
        for (_, verifier) in verifiers {
            _ = try await run(
                verifier, messages: try sign(signer, request, count: 2_000), concurrency: options.concurrency)
        }

        var samples: [[Sample]] = [[], []]
        for _ in 0..<options.rounds {
            for (index, (_, verifier)) in verifiers.enumerated() {
                let messages = try sign(signer, request, count: options.requests)
                let cpuBefore = processCPU()
                let redisBefore = options.redisPID.map(redisCPU) ?? 0
                let start = ContinuousClock.now
                let refused = try await run(verifier, messages: messages, concurrency: options.concurrency)
                let wall = start.duration(to: .now)
                let cpu = processCPU() - cpuBefore
                let redis = (options.redisPID.map(redisCPU) ?? 0) - redisBefore
                guard refused == 0 else { throw BenchmarkError("\(refused) requests were refused") }
                let count = Double(options.requests)
                samples[index].append(
                    Sample(
                        wallNanoseconds: nanoseconds(wall) / count, processCPUNanoseconds: cpu / count,
                        redisCPUNanoseconds: redis / count))
            }
        }
        let keys = try await client.send(["DBSIZE"]).integerValue ?? -1
        await client.shutdown()
        await loops.shutdown()

        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var medians: [(wall: Double, cpu: Double, redis: Double)] = []
        for (index, (name, _)) in verifiers.enumerated() {
            let wall = median(samples[index].map(\.wallNanoseconds))
            let cpu = median(samples[index].map(\.processCPUNanoseconds))
            let redis = median(samples[index].map(\.redisCPUNanoseconds))
            medians.append((wall, cpu, redis))
            print(
                String(
                    format: "  %@ guard: %8.0f requests/s  %7.2f us/request wall  %6.2f us CPU (process)"
                        + "  %6.2f us CPU (redis-server)  (wall %.2f-%.2f us over rounds)",
                    name.padding(toLength: 9, withPad: " ", startingAt: 0), 1e9 / wall, wall / 1_000, cpu / 1_000,
                    redis / 1_000, samples[index].map(\.wallNanoseconds).min()! / 1_000,
                    samples[index].map(\.wallNanoseconds).max()! / 1_000))
        }
        let memory = medians[0]
        let redis = medians[1]
        print(
            String(
                format: "  Redis / in-memory: %.2fx wall per request, %.2fx process CPU per request,"
                    + " %.2fx throughput; +%.2f us CPU per request in redis-server",
                redis.wall / memory.wall, redis.cpu / memory.cpu, memory.wall / redis.wall, redis.redis / 1_000))
        print("  (nonce keys in Redis at the end: \(keys), each expiring with its signature's window)")
    }

    /// `count` requests signed now, as the upstream receives them.
    static func sign(_ signer: RequestSigner, _ request: HTTPRequest, count: Int) throws -> [SignableMessage] {
        try (0..<count).map { _ in SigningBenchmark.received(try signer.sign(request)) }
    }

    /// Verifies every message with `concurrency` tasks; returns how many were refused.
    static func run(_ verifier: SignatureVerifier, messages: [SignableMessage], concurrency: Int) async throws -> Int {
        let next = Counter()
        return await withTaskGroup(of: Int.self) { group in
            for _ in 0..<min(concurrency, messages.count) {
                group.addTask {
                    var refused = 0
                    while let index = next.take(below: messages.count) {
                        do {
                            _ = try await verifier.verify(messages[index])
                        } catch {
                            refused += 1
                            if refused == 1 { print("  refused: \(error)") }
                        }
                    }
                    return refused
                }
            }
            return await group.reduce(0, +)
        }
    }

    /// Hands out indexes to the workers.
    final class Counter: Sendable {
        private let value = Atomic<Int>(0)

        func take(below limit: Int) -> Int? {
            let index = value.wrappingAdd(1, ordering: .relaxed).oldValue
            return index < limit ? index : nil
        }
    }

    struct BenchmarkError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The process's CPU time (every thread), in nanoseconds.
    static func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }

    /// A process's user and system CPU time from `/proc/PID/stat`, in nanoseconds.
    static func redisCPU(_ pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return 0 }
        let fields = text[text.index(after: end)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based, whole line).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK))) * 1e9
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
}
