import Foundation
import HTTPServer
import HTTPTypes
import RequestSigning
import ServiceCore
import Testing

@testable import SandboxUpstreams

/// When the replay guard's store cannot be asked, an upstream refuses the request with 503
/// `replay_store_unavailable` naming the store, never accepts it unchecked.
struct ReplayStoreUnavailableTests {
    /// A replay guard whose store is down.
    struct UnreachableStore: ReplayGuard {
        nonisolated(nonsending)
            func checkAndRemember(_ nonce: ReplayNonce, expiresAt: Date, now: Date) async -> ReplayCheckResult
        {
            .storeUnavailable("redis replay store at 127.0.0.1:6390: connectionFailed")
        }
    }

    @Test func aSignedRequestIsRefusedWith503NamingTheStore() async throws {
        let key = try SigningKey(id: "user-test", tag: "UserModule", secret: [UInt8](repeating: 7, count: 32))
        let gate = try SignatureGate(key: key, replayGuard: UnreachableStore(), clock: { Date() })
        let request = HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:8080/v1/users/alice")!)
        let signed = try RequestSigner(key: key).sign(request)
        var headers = ServerHeaders([("Host", "127.0.0.1:8080")])
        headers.append(contentsOf: signed.headers)
        let problem = try #require(
            await gate.check(ServerRequest(method: "GET", target: "/v1/users/alice", headers: headers)))
        #expect(problem.code.status == 503)
        #expect(problem.code.name == "replay_store_unavailable")
        #expect(problem.detail.contains("redis replay store at 127.0.0.1:6390"))
        #expect(problem.headers.contains { $0.name == "Retry-After" && $0.value == "1" })
        #expect(!problem.detail.contains(String(decoding: [UInt8](repeating: 7, count: 32), as: UTF8.self)))
    }
}
