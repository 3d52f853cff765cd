import Foundation
import HTTPServer
import HTTPTypes
import RequestSigning
import ServiceCore
import Testing

@testable import SandboxUpstreams

/// With a shared replay store that cannot be asked, reads are checked against the upstream's
/// own nonces (a replay among them is still refused) and writes are refused with 503.
struct OutageReadsTests {
    struct UnreachableStore: ReplayGuard {
        nonisolated(nonsending)
            func checkAndRemember(_ nonce: ReplayNonce, expiresAt: Date, now: Date) async -> ReplayCheckResult
        {
            .storeUnavailable("the Redis replay store at 127.0.0.1:6390 failed: connectionFailed")
        }
    }

    private func request(_ method: HTTPMethod, _ key: SigningKey, path: String = "/v1/charges") throws
        -> ServerRequest
    {
        let body = method == .post ? Data("{}".utf8) : nil
        let signed = try RequestSigner(key: key).sign(
            HTTPRequest(method: method, url: URL(string: "http://127.0.0.1:8080" + path)!, body: body))
        var headers = ServerHeaders([("Host", "127.0.0.1:8080")])
        headers.append(contentsOf: signed.headers)
        return ServerRequest(method: method.rawValue, target: path, headers: headers, body: body ?? Data())
    }

    @Test func readsGoOnWritesFailClosed() async throws {
        let key = try SigningKey(id: "payment-test", tag: "PaymentModule", secret: [UInt8](repeating: 9, count: 32))
        let metrics = SandboxMetrics()
        let own = InMemoryReplayGuard(capacity: 10)
        let gate = try SignatureGate(
            key: key, replayGuard: UnreachableStore(), outageGuard: own, metrics: metrics, clock: { Date() })
        let read = try request(.get, key)
        #expect(await gate.check(read) == nil)
        #expect(own.count == 1)
        let replayed = try #require(await gate.check(read))
        #expect(replayed.code.name == "signature_replayed")
        let write = try #require(await gate.check(try request(.post, key)))
        #expect(write.code.name == "replay_store_unavailable")
        #expect(write.code.status == 503)
        // Token introspection is a read sent as a POST.
        #expect(await gate.check(try request(.post, key, path: "/v1/sessions/introspect")) == nil)
        #expect(metrics.text(upstream: "payment", replayGuard: own).contains("{store=\"replay\"} 4\n"))
    }
}
