import Foundation
import HTTPTypes
import RedisTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two built `swiftyd` processes (each with its sandbox) sharing one `redis-server`: rate limits
/// hold for both together, a token one introspected is a cache hit on the other, and when Redis
/// stops, reads go on (counted in `/metrics`) and sharing resumes when it is back.
@Suite(.timeLimit(.minutes(3)))
struct SharedStateDaemonTests {
    /// Starts a daemon on `server` with `extra` JSON members in its configuration; the Redis
    /// settings in the file, or in `SWIFTY_STATE_STORE` and `SWIFTY_REDIS_*` variables.
    static func daemon(
        _ server: RedisServer, passwordFile: String? = nil, extra: String = "", viaEnvironment: Bool = false
    ) async throws -> DaemonProcess {
        let url = "redis://127.0.0.1:\(server.port ?? 0)/0"
        var environment: [String: String] = [:]
        var json = #"{"sharedState": {"store": "memory"}"# + extra + "}"
        if viaEnvironment {
            environment = ["SWIFTY_STATE_STORE": "redis", "SWIFTY_REDIS_URL": url]
            environment["SWIFTY_REDIS_PASSWORD_FILE"] = passwordFile
        } else {
            let password = passwordFile.map { #", "passwordFile": "\#($0)""# } ?? ""
            json = #"{"sharedState": {"store": "redis", "redis": {"url": "\#(url)""# + password + "}}" + extra + "}"
        }
        let path = try DaemonProcess.configurationFile(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await DaemonProcess.start(arguments: ["--config", path], environment: environment)
    }

    /// The value of one series in `/metrics` (`name{labels}`), 0 when absent.
    static func metric(_ series: String, of daemon: DaemonProcess) async throws -> Double {
        let text = try await AppClient(baseURL: daemon.adminURL).get("/metrics", token: nil).text
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1)) ?? -1
        }
        return 0
    }

    static let hits = #"swiftyd_token_cache_lookups_total{result="hit"}"#
    static let misses = #"swiftyd_token_cache_lookups_total{result="miss"}"#

    @Test func aRateLimitHoldsAcrossBothDaemonsAndTheTokenCacheIsShared() async throws {
        let password = "redis-pw-5c0ffee9"
        try await RedisServer.with(arguments: ["--requirepass", password]) { server throws in
            let passwordFile = server.directory + "/redis.password"
            try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
            let limit = #", "rateLimits": {"reads": {"perUser": {"quota": 5, "windowSeconds": 3600}}}"#
            let first = try await Self.daemon(server, passwordFile: passwordFile, extra: limit)
            let second = try await Self.daemon(server, passwordFile: passwordFile, extra: limit, viaEnvironment: true)
            let apps = [AppClient(baseURL: first.baseURL), AppClient(baseURL: second.baseURL)]

            var answers: [AppClient.Answer] = []
            for index in 0..<9 { answers.append(try await apps[index % 2].get("/v1/me")) }
            #expect(answers.map(\.status) == [200, 200, 200, 200, 200, 429, 429, 429, 429])
            for (index, answer) in answers.enumerated() {
                #expect(answer.headers["RateLimit-Policy"] == #""reads-user";q=5;w=3600"#)
                let remaining = max(0, 4 - index)
                #expect(answer.headers["RateLimit"]?.hasPrefix("\"reads-user\";r=\(remaining);t=") == true)
            }
            for refused in answers.filter({ $0.status == 429 }) {
                #expect(Int(refused.headers["Retry-After"] ?? "") ?? 0 >= 1)
                #expect(refused.text.contains(#""code":"rate_limited""#))
            }
            // Another user has an allowance of their own, on either daemon.
            #expect(try await apps[1].get("/v1/me", token: "sandbox-bob").status == 200)

            // alice was introspected once, by the first daemon; the second only ever hit the cache.
            #expect(try await Self.metric(Self.misses, of: first) == 1)
            #expect(try await Self.metric(Self.hits, of: second) == 4)
            #expect(try await Self.metric(Self.misses, of: second) == 1)
            for daemon in [first, second] {
                #expect(
                    try await Self.metric(#"swiftyd_shared_state_errors_total{store="rate_limits"}"#, of: daemon) == 0)
                #expect(try await Self.metric(#"swiftyd_shared_state_available{store="token_cache"}"#, of: daemon) == 1)
            }

            // At once through both daemons: still exactly the quota.
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<16 {
                    group.addTask { try await apps[index % 2].get("/v1/me", token: "sandbox-carol").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count { $0 == 200 } == 5, "\(statuses)")
            #expect(statuses.count { $0 == 429 } == 11, "\(statuses)")
            for daemon in [first, second] {
                daemon.signal(SIGTERM)
                #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
                #expect(!daemon.log.contains(password))
            }
        }
    }

    @Test func readsGoOnWhileRedisIsDownAndSharingResumesWhenItIsBack() async throws {
        let server = try await RedisServer.start(stablePort: true)
        do {
            let limit = #", "rateLimits": {"reads": {"perUser": {"quota": 1000, "windowSeconds": 60}}}"#
            let first = try await Self.daemon(server, extra: limit)
            let second = try await Self.daemon(server, extra: limit, viaEnvironment: true)
            let apps = [AppClient(baseURL: first.baseURL), AppClient(baseURL: second.baseURL)]
            #expect(try await apps[0].get("/v1/me").status == 200)
            #expect(try await apps[1].get("/v1/me").status == 200)
            #expect(try await Self.metric(Self.hits, of: second) == 1)

            await server.kill()
            for index in 0..<6 {
                let answer = try await apps[index % 2].get("/v1/me")
                #expect(answer.status == 200)
                #expect(answer.json?["id"] as? String == "alice")
                // The limit failed open: the answer carries no fields it could not compute.
                #expect(answer.headers["RateLimit"] == nil)
            }
            #expect(try await apps[0].get("/v1/wallet").status == 200)
            for daemon in [first, second] {
                let admin = AppClient(baseURL: daemon.adminURL)
                #expect(try await admin.get("/readyz", token: nil).status == 200)
                for store in ["rate_limits", "token_cache"] {
                    #expect(
                        try await Self.metric("swiftyd_shared_state_errors_total{store=\"\(store)\"}", of: daemon) >= 3)
                    #expect(
                        try await Self.metric("swiftyd_shared_state_available{store=\"\(store)\"}", of: daemon) == 0)
                }
            }

            try await server.restart()
            // No restart of either daemon: once their clients reconnect, a token the first daemon
            // introspects is a hit on the second again (Redis restarted empty).
            let hitsBefore = try await Self.metric(Self.hits, of: second)
            var shared = false
            for _ in 0..<100 where !shared {
                _ = try await apps[0].get("/v1/me", token: "sandbox-carol")
                _ = try await apps[1].get("/v1/me", token: "sandbox-carol")
                shared = try await Self.metric(Self.hits, of: second) > hitsBefore
                if !shared { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(shared)
            let limited = try await apps[1].get("/v1/me", token: "sandbox-carol")
            #expect(limited.status == 200)
            #expect(limited.headers["RateLimit"] != nil)

            for daemon in [first, second] {
                #expect(try await Self.metric(#"swiftyd_shared_state_available{store="token_cache"}"#, of: daemon) == 1)
                daemon.signal(SIGTERM)
                #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
                // One warning per store and outage, however many requests met it.
                let warnings = daemon.log.split(separator: "\n").filter { $0.contains("shared state unavailable") }
                #expect(warnings.count == 2, "\(warnings)")
                #expect(daemon.log.split(separator: "\n").count { $0.contains("shared state available again") } == 2)
            }
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }
}
