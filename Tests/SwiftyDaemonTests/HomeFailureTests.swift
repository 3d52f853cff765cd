import Foundation
import HTTPTypes
import SandboxUpstreams
import Testing

@testable import SwiftyDaemon

/// `/v1/home` fetches its three parts at once, answers 200 while at least one part is served,
/// and a problem with the most telling status, naming the modules, when none is.
@Suite(.timeLimit(.minutes(2)))
struct HomeFailureTests {
    static func start(timeoutMilliseconds: Int? = nil) async throws -> (Daemon, SandboxUpstreams, AppClient) {
        var configuration = UpstreamFailureTests.sandboxConfiguration()
        if let timeoutMilliseconds {
            for module in ["UserModule", "FeedModule", "PaymentModule"] {
                configuration.modules[module] = .init(timeoutMilliseconds: timeoutMilliseconds)
            }
        }
        let daemon = try await UpstreamFailureTests.start(configuration)
        let sandbox = try #require(daemon.sandbox).upstreams
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        // The token is introspected (and cached) before the faults start.
        #expect(try await app.get("/v1/me").status == 200)
        return (daemon, sandbox, app)
    }

    /// Three upstreams that each take 400 ms answer the screen in well under the 1.2 s that one
    /// call after another would take.
    @Test func thePartsAreFetchedAtOnce() async throws {
        let (daemon, sandbox, app) = try await Self.start()
        try sandbox.setFaults(FaultSettings(latency: .milliseconds(400)))
        let clock = ContinuousClock()
        let start = clock.now
        let home = try await app.get("/v1/home")
        let elapsed = clock.now - start
        #expect(home.status == 200)
        #expect((home.json?["errors"] as? [Any])?.isEmpty == true)
        #expect(elapsed >= .milliseconds(400))
        #expect(elapsed < .milliseconds(1_100))
        await daemon.drain()
    }

    @Test func onePartServedIs200() async throws {
        let (daemon, sandbox, app) = try await Self.start()
        try sandbox.setFaults(FaultSettings(errorRate: 1), for: .feed)
        try sandbox.setFaults(FaultSettings(errorRate: 1), for: .payment)
        let home = try await app.get("/v1/home")
        #expect(home.status == 200)
        #expect(home.json?["profile"] is [String: Any])
        #expect(
            (home.json?["errors"] as? [[String: Any]])?.compactMap { $0["module"] as? String }.sorted()
                == ["FeedModule", "PaymentModule"])
        await daemon.drain()
    }

    @Test func everyPartUnavailableIs503WithRetryAfterNamingTheModules() async throws {
        let (daemon, sandbox, app) = try await Self.start()
        try sandbox.setFaults(FaultSettings(errorRate: 1))
        let home = try await app.get("/v1/home")
        #expect(home.status == 503)
        #expect(home.json?["code"] as? String == "upstream_unavailable")
        #expect(home.headers["Retry-After"] != nil)
        #expect(home.headers["Content-Type"] == "application/problem+json")
        #expect(home.json?["modules"] as? String == "UserModule,FeedModule,PaymentModule")
        let detail = home.json?["detail"] as? String ?? ""
        #expect(["UserModule", "FeedModule", "PaymentModule"].allSatisfy { detail.contains($0) })
        await daemon.drain()
    }

    @Test func everyPartTooSlowIs504() async throws {
        let (daemon, sandbox, app) = try await Self.start(timeoutMilliseconds: 300)
        try sandbox.setFaults(FaultSettings(latency: .milliseconds(1500)))
        let home = try await app.get("/v1/home")
        #expect(home.status == 504)
        #expect(home.json?["code"] as? String == "upstream_timeout")
        #expect(home.headers["Retry-After"] == nil)
        #expect(home.json?["modules"] as? String == "UserModule,FeedModule,PaymentModule")
        // One part unavailable, two too slow: unavailable is the most telling.
        try sandbox.setFaults(FaultSettings(errorRate: 1), for: .payment)
        let mixed = try await app.get("/v1/home")
        #expect(mixed.status == 503)
        await daemon.drain()
    }
}
