import AppLogging
import Foundation
import HTTPServer
import HTTPTypes
import RequestSigning
import SandboxUpstreams
import ServiceCore
import Testing

@testable import SwiftyDaemon

/// The daemon built in process (the same composition root `swiftyd` uses), so a test can
/// reach its sandbox's fault settings and add middlewares after signing.
@Suite(.timeLimit(.minutes(2)))
struct UpstreamFailureTests {
    static func sandboxConfiguration() -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        configuration.drainDelaySeconds = 0
        configuration.port = 0
        configuration.adminPort = 0
        configuration.drainSeconds = 2
        return configuration
    }

    static func start(
        _ configuration: DaemonConfiguration = sandboxConfiguration(),
        overrides: DaemonOverrides = DaemonOverrides()
    ) async throws -> Daemon {
        try await Daemon.start(
            configuration: configuration,
            environment: [:],
            logger: Logger(label: "test", handler: SwallowingLogHandler()),
            overrides: overrides
        )
    }

    /// Alters the signed request, as a man in the middle would.
    struct Tamper: Middleware {
        let alter: @Sendable (inout HTTPRequest) -> Void

        func intercept(
            _ request: HTTPRequest,
            context: MiddlewareContext,
            next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
        ) async throws -> HTTPResponse {
            var request = request
            alter(&request)
            return try await next(request, context)
        }
    }

    static let tamperings: [(String, @Sendable (inout HTTPRequest) -> Void)] = [
        (
            "the path",
            { request in
                let text = request.url.absoluteString.replacingOccurrences(of: "/wallets/alice", with: "/wallets/bob")
                request.url = URL(string: text)!
            }
        ),
        (
            "the Signature-Input header",
            { request in
                let input = request.headers["Signature-Input"] ?? ""
                request.headers["Signature-Input"] = input.replacingOccurrences(of: "created=", with: "created=1")
            }
        ),
        (
            "the Signature header",
            { request in
                let signature = request.headers["Signature"] ?? ""
                request.headers["Signature"] = signature.replacingOccurrences(
                    of: ":", with: ":AAAA", options: [], range: nil)
            }
        ),
    ]

    @Test(arguments: 0..<3)
    func aSignatureTamperedInFlightIsRefusedUpstream(index: Int) async throws {
        var overrides = DaemonOverrides()
        overrides.afterSigning["PaymentModule"] = [Tamper(alter: Self.tamperings[index].1)]
        let daemon = try await Self.start(overrides: overrides)
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        let answer = try await app.get("/v1/wallet")
        #expect(answer.status == 502)
        #expect(answer.json?["module"] as? String == "PaymentModule")
        #expect(!answer.text.contains("bob"))
        #expect(daemon.metrics.upstreamCalls.value(["PaymentModule", "wallet", "401"]) == 1)
        // The untampered modules still work.
        #expect(try await app.get("/v1/me").status == 200)
        await daemon.drain()
    }

    @Test func homeServesTheOtherPartsWhenTheFeedIsDown() async throws {
        let daemon = try await Self.start()
        let sandbox = try #require(daemon.sandbox)
        try sandbox.upstreams.setFaults(FaultSettings(errorRate: 1), for: .feed)
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        let home = try await app.get("/v1/home")
        #expect(home.status == 200)
        #expect((home.json?["profile"] as? [String: Any])?["id"] as? String == "alice")
        #expect(home.json?["wallet"] is [String: Any])
        #expect(home.json?["feed"] is NSNull)
        let errors = try #require(home.json?["errors"] as? [[String: Any]])
        #expect(errors.count == 1)
        #expect(errors.first?["part"] as? String == "feed")
        #expect(errors.first?["module"] as? String == "FeedModule")
        #expect(errors.first?["status"] as? Int == 503)
        await daemon.drain()
    }

    @Test func aSlowUpstreamIs504NamingTheModule() async throws {
        var configuration = Self.sandboxConfiguration()
        configuration.modules["PaymentModule"] = .init(timeoutMilliseconds: 200)
        let daemon = try await Self.start(configuration)
        let sandbox = try #require(daemon.sandbox)
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        #expect(try await app.get("/v1/me").status == 200)
        try sandbox.upstreams.setFaults(FaultSettings(latency: .seconds(2)), for: .payment)
        let answer = try await app.get("/v1/wallet")
        #expect(answer.status == 504)
        #expect(answer.json?["module"] as? String == "PaymentModule")
        #expect(daemon.metrics.upstreamErrors.value(["PaymentModule", "timeout"]) >= 1)
        await daemon.drain()
    }

    @Test func aRefusedUpstreamIs503NamingTheModule() async throws {
        // Live mode: user and feed on a running sandbox, payments on a port nothing listens on.
        let upstreams = try await SandboxUpstreams.start(keys: try SandboxKeys.generate())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try upstreams.keys.write(toDirectory: directory.path)
        let closed = try await Self.closedPort()
        var configuration = Self.sandboxConfiguration()
        configuration.mode = .live
        for service in SandboxService.allCases {
            let key = upstreams.keys[service]
            configuration.modules[service.moduleName] = .init(
                baseURL: service == .payment ? "http://127.0.0.1:\(closed)" : upstreams.baseURLString(for: service),
                keyID: key.keyID,
                keyFile: directory.appendingPathComponent(SandboxKeys.fileName(forKeyID: key.keyID)).path,
                transport: service == .feed ? .urlsession : .curl
            )
        }
        #expect(ConfigurationCheck.problems(in: configuration, environment: [:]).isEmpty)
        let daemon = try await Self.start(configuration)
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        #expect(try await app.get("/v1/me").status == 200)
        #expect(try await app.get("/v1/feed").status == 200)  // over URLSession: per-module transports
        let answer = try await app.get("/v1/wallet")
        #expect(answer.status == 503)
        #expect(answer.json?["module"] as? String == "PaymentModule")
        #expect(daemon.metrics.upstreamErrors.value(["PaymentModule", "refused"]) >= 1)
        await daemon.drain()
        await upstreams.shutdown()
    }

    @Test func aFailedStartStopsWhatItStarted() async throws {
        let occupied = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0)) { _ in ServerResponse(status: 200) }
        try occupied.start()
        var configuration = Self.sandboxConfiguration()
        configuration.port = occupied.port
        configuration.adminPort = try await Self.closedPort()
        await #expect(throws: (any Error).self) { try await Self.start(configuration) }
        // The admin server that had started is stopped again: its port can be bound.
        let reuse = HTTPServer(configuration: .init(host: "127.0.0.1", port: configuration.adminPort)) { _ in
            ServerResponse(status: 200)
        }
        try reuse.start()
        await reuse.shutdown(gracePeriod: .zero)
        await occupied.shutdown(gracePeriod: .zero)
    }

    @Test func readinessIsDrainingAfterDrain() async throws {
        let daemon = try await Self.start()
        #expect(daemon.readiness.state == .ready)
        await daemon.drain()
        #expect(daemon.readiness.state == .draining)
    }

    /// A loopback port that was just free: bound by a server that is then stopped.
    static func closedPort() async throws -> Int {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0)) { _ in ServerResponse(status: 200) }
        try server.start()
        let port = server.port
        await server.shutdown(gracePeriod: .zero)
        return port
    }
}
