import AppLogging
import Foundation
import RedisClient
import RedisTestSupport
import ServiceTesting
import Testing

@testable import SwiftyDaemon

/// The Redis store takes the same GCRA step as the in-memory one (the reference), atomically for
/// several clients, on Redis's clock; when Redis is gone the limiter lets requests through,
/// counts each failure and logs the outage once.
@Suite(.timeLimit(.minutes(2)))
struct RedisRateLimitStoreTests {
    /// Whole-second intervals (720 s, 60 s, 86400 s), long beside the test's run, so the time that
    /// passes on Redis's clock while it runs cannot change a decision.
    static let cases: [(key: String, policy: RateLimitPolicy)] = [
        ("a", RateLimitPolicy(name: "hourly", quota: 5, window: .seconds(3_600))),
        ("b", RateLimitPolicy(name: "three", quota: 3, window: .seconds(180))),
        ("c", RateLimitPolicy(name: "daily", quota: 1, window: .seconds(86_400))),
    ]

    @Test func theSameSequenceGetsTheReferenceDecisions() async throws {
        try await RedisServer.with { server throws in
            try await RedisClients.with(server) { clients throws in
                let redis = RedisRateLimitStore(client: clients[0], keyPrefix: "test:")
                let reference = InMemoryRateLimitStore(clock: VirtualClock())
                // A fixed interleaving of the three keys, each used past its quota.
                let order = [0, 1, 0, 2, 1, 1, 0, 2, 1, 0, 0, 0, 1, 2, 0, 1, 0]
                let started = ContinuousClock.now
                var allowedCount = 0
                for index in order {
                    let (key, policy) = Self.cases[index]
                    let expected = try await reference.acquire(key, policy: policy)
                    let actual = try await redis.acquire(key, policy: policy)
                    let elapsed = ContinuousClock.now - started + .milliseconds(1)
                    #expect(actual.allowed == expected.allowed, "\(key) #\(index)")
                    #expect(actual.remaining == expected.remaining, "\(key)")
                    // Redis's clock moved on by at most the time the test has run.
                    #expect(actual.resetAfter <= expected.resetAfter)
                    #expect(actual.resetAfter >= expected.resetAfter - elapsed)
                    #expect((actual.retryAfter == nil) == (expected.retryAfter == nil))
                    if let retry = actual.retryAfter, let reference = expected.retryAfter {
                        #expect(retry <= reference && retry >= reference - elapsed)
                    }
                    if actual.allowed { allowedCount += 1 }
                }
                #expect(allowedCount == 5 + 3 + 1)
                // Keys live as long as they matter: the daily key's time-to-live is about a day.
                let ttl = try await clients[0].send(["PTTL", RedisArgument(redis.redisKey("c"))]).integerValue
                #expect(ttl.map { $0 > 86_000_000 && $0 <= 86_400_000 } == true)
            }
        }
    }

    /// Two clients (two daemons) hitting one key at once: exactly the quota passes.
    @Test func concurrentAcquisitionsFromTwoClientsShareOneAllowance() async throws {
        try await RedisServer.with { server throws in
            try await RedisClients.with(server, count: 2) { clients throws in
                let stores = clients.map { RedisRateLimitStore(client: $0, keyPrefix: "test:") }
                let policy = RateLimitPolicy(name: "p", quota: 10, window: .seconds(3_600))
                let decisions = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<60 {
                        group.addTask { try await stores[index % 2].acquire("shared", policy: policy).allowed }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(decisions.count { $0 } == 10)
            }
        }
    }

    /// The allowance comes back on Redis's clock: after a refusal, a request passes again once
    /// the reported wait is over (polled, with a generous bound).
    @Test func theAllowanceComesBack() async throws {
        try await RedisServer.with { server throws in
            try await RedisClients.with(server) { clients throws in
                let store = RedisRateLimitStore(client: clients[0], keyPrefix: "test:")
                // Spaced 2 s apart, so a loaded machine's pauses between the calls do not let the
                // third through.
                let policy = RateLimitPolicy(name: "p", quota: 2, window: .seconds(4))
                #expect(try await store.acquire("k", policy: policy).allowed)
                #expect(try await store.acquire("k", policy: policy).allowed)
                let refused = try await store.acquire("k", policy: policy)
                let retry = try #require(refused.retryAfter)
                #expect(!refused.allowed && retry > .zero && retry <= .seconds(2))
                var passed = false
                for _ in 0..<400 where !passed {
                    try await Task.sleep(for: .milliseconds(25))
                    passed = try await store.acquire("k", policy: policy).allowed
                }
                #expect(passed)
            }
        }
    }

    @Test func theLimiterFailsOpenCountsAndLogsOncePerOutage() async throws {
        let server = try await RedisServer.start(stablePort: true)
        do {
            try await RedisClients.with(server) { clients throws in
                let log = InMemoryLogHandler()
                let health = SharedStateHealth(store: "rate_limits", logger: Logger(label: "test", handler: log))
                var settings = RateLimitSettings()
                settings.reads.perUser = RateLimitPolicy(name: "reads-user", quota: 1, window: .seconds(3_600))
                let limiter = RateLimiter(
                    settings: settings, store: RedisRateLimitStore(client: clients[0], keyPrefix: "test:"),
                    health: health)
                guard case .allowed(let fields) = await limiter.check(.reads, user: "alice") else {
                    Issue.record("the first request was refused")
                    return
                }
                #expect(fields.map(\.0) == ["RateLimit-Policy", "RateLimit"])
                guard case .refused = await limiter.check(.reads, user: "alice") else {
                    Issue.record("the second request passed")
                    return
                }

                await server.kill()
                for _ in 0..<5 {
                    guard case .allowed(let fields) = await limiter.check(.reads, user: "alice") else {
                        Issue.record("refused while Redis is down")
                        return
                    }
                    #expect(fields.isEmpty)
                }
                #expect(limiter.storeFailures == 5)
                #expect(!health.isAvailable)
                let metrics = Metrics()
                metrics.addSharedState(health)
                #expect(metrics.render().contains(#"swiftyd_shared_state_errors_total{store="rate_limits"} 5"#))
                #expect(metrics.render().contains(#"swiftyd_shared_state_available{store="rate_limits"} 0"#))

                try await server.restart()
                // Redis restarted empty: the allowance is whole again once the client reconnects.
                var back = false
                for _ in 0..<200 where !back {
                    if case .allowed(let fields) = await limiter.check(.reads, user: "alice"), !fields.isEmpty {
                        back = true
                    } else {
                        try await Task.sleep(for: .milliseconds(25))
                    }
                }
                #expect(back)
                #expect(health.isAvailable)
                let lines = log.renderedLines
                #expect(lines.count { $0.contains("shared state unavailable") } == 1, "\(lines)")
                #expect(lines.count { $0.contains("shared state available again") } == 1, "\(lines)")
            }
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }
}
