import AppLogging
import Foundation
import HTTPTypes
import SandboxUpstreams
import ServiceCore
import Testing

@testable import SwiftyDaemon

/// The daemon with every module on the `http1` transport: the same answers, signatures,
/// idempotency and failure mapping as over libcurl.
@Suite(.timeLimit(.minutes(2)))
struct HTTP1TransportDaemonTests {
    static func configuration() -> DaemonConfiguration {
        var configuration = UpstreamFailureTests.sandboxConfiguration()
        for name in ["UserModule", "FeedModule", "PaymentModule"] {
            configuration.modules[name] = .init(transport: .http1, timeoutMilliseconds: 2000)
        }
        return configuration
    }

    @Test func everyRouteAnswersOverTheHTTP1Transport() async throws {
        let daemon = try await UpstreamFailureTests.start(Self.configuration())
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        let me = try await app.get("/v1/me")
        #expect(me.status == 200)
        #expect(me.json?["id"] as? String == "alice")
        #expect(try await app.get("/v1/me", token: "not-a-token").status == 401)
        #expect(try await app.get("/v1/users/bob").json?["id"] as? String == "bob")
        #expect(try await app.get("/v1/feed?limit=2").status == 200)
        var ids: Set<String> = []
        for _ in 0..<3 {
            let payment = try await app.send(
                .post, "/v1/payments", headers: ["Idempotency-Key": "http1-once"],
                json: #"{"payee": "bob", "amountMinor": 321, "currency": "EUR"}"#)
            #expect(payment.status == 201)
            if let id = payment.json?["id"] as? String { ids.insert(id) }
        }
        #expect(ids.count == 1)  // one charge, answered three times
        let home = try await app.get("/v1/home")
        #expect(home.status == 200)
        #expect(home.json?["profile"] is [String: Any])
        #expect(home.json?["feed"] is [String: Any])
        #expect(home.json?["wallet"] is [String: Any])
        #expect((home.json?["errors"] as? [Any])?.isEmpty == true)
        #expect(daemon.metrics.upstreamCalls.value(["UserModule", "profile", "200"]) >= 1)
        await daemon.drain()
    }

    @Test func aSlowUpstreamIs504AndAResetOneIsABadGateway() async throws {
        let daemon = try await UpstreamFailureTests.start(Self.configuration())
        let sandbox = try #require(daemon.sandbox)
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        #expect(try await app.get("/v1/me").status == 200)
        try sandbox.upstreams.setFaults(FaultSettings(latency: .seconds(4)), for: .payment)
        let slow = try await app.get("/v1/wallet")
        #expect(slow.status == 504)
        #expect(slow.json?["module"] as? String == "PaymentModule")
        try sandbox.upstreams.setFaults(FaultSettings(resetRate: 1), for: .feed)
        let reset = try await app.get("/v1/feed")
        #expect(reset.status >= 502 && reset.status <= 503)
        #expect(reset.json?["module"] as? String == "FeedModule")
        // The others still answer.
        #expect(try await app.get("/v1/users/bob").status == 200)
        await daemon.drain()
    }
}
