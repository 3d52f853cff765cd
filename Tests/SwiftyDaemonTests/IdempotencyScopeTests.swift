import Foundation
import HTTPTypes
import ServiceCore
import Synchronization
import Testing

@testable import SwiftyDaemon

/// An `Idempotency-Key` is bound to the user who sends it: the upstream sees a key derived from
/// the user and the client's key, so two users' identical keys are two payments, and one user's
/// retry is the same payment.
@Suite(.timeLimit(.minutes(2)))
struct IdempotencyScopeTests {
    /// Keeps the `Idempotency-Key` of every payment request the daemon sends upstream.
    final class KeyRecorder: Middleware, Sendable {
        let keys = Mutex<[String]>([])

        func intercept(
            _ request: HTTPRequest,
            context: MiddlewareContext,
            next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
        ) async throws -> HTTPResponse {
            if let key = request.headers["Idempotency-Key"] { keys.withLock { $0.append(key) } }
            return try await next(request, context)
        }
    }

    @Test func twoUsersWithOneKeyMakeTwoPaymentsAndARetryMakesNone() async throws {
        let recorder = KeyRecorder()
        var overrides = DaemonOverrides()
        overrides.afterSigning["PaymentModule"] = [recorder]
        let daemon = try await UpstreamFailureTests.start(overrides: overrides)
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        let body = #"{"payee": "carol", "amountMinor": 25, "currency": "EUR"}"#
        let key: HTTPHeaders = ["Idempotency-Key": "shared-key-1"]
        let alice = try await app.send(.post, "/v1/payments", token: "sandbox-alice", headers: key, json: body)
        let bob = try await app.send(.post, "/v1/payments", token: "sandbox-bob", headers: key, json: body)
        let aliceAgain = try await app.send(.post, "/v1/payments", token: "sandbox-alice", headers: key, json: body)
        #expect(alice.status == 201)
        #expect(bob.status == 201)
        #expect(aliceAgain.status == 201)
        let ids = [alice, bob, aliceAgain].map { $0.json?["id"] as? String }
        #expect(ids[0] != nil && ids[0] != ids[1], "two users, two payments")
        #expect(ids[0] == ids[2], "the same user's retry is the same payment")
        #expect(aliceAgain.headers["Idempotent-Replayed"] == "true")
        #expect(alice.headers["Idempotent-Replayed"] == nil)
        #expect(bob.json?["payerId"] as? String == "bob")

        let sent = recorder.keys.withLock { $0 }
        #expect(sent.count == 3)
        #expect(!sent.contains("shared-key-1"), "the client's key never goes upstream as it is")
        #expect(sent[0] == sent[2])
        #expect(sent[0] != sent[1])
        #expect(sent[0] == ScopedIdempotencyKey.upstream(user: "alice", clientKey: "shared-key-1"))
        await daemon.drain()
    }

    @Test(arguments: ["", "has space", "ключ", String(repeating: "k", count: 256)])
    func anInvalidKeyIsA400NamingTheRule(_ key: String) async throws {
        let daemon = try await UpstreamFailureTests.start()
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        let answer = try await app.send(
            .post, "/v1/payments", headers: ["Idempotency-Key": key],
            json: #"{"payee": "carol", "amountMinor": 25, "currency": "EUR"}"#)
        #expect(answer.status == 400)
        #expect(answer.json?["code"] as? String == "idempotency_key_missing")
        await daemon.drain()
    }
}
