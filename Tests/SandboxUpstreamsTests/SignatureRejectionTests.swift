import Foundation
import HTTPTypes
import PaymentModule
import RequestSigning
import SandboxUpstreams
import ServiceCore
import ServiceTesting
import Testing
import UserModule

/// Every upstream refuses what is not signed correctly with its own module's key: 401 with a
/// problem code and a detail naming the failed check, and nothing else happens.
@Suite(.timeLimit(.minutes(1)))
struct SignatureRejectionTests {
    private func randomSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in generator.next() }
    }

    @Test(arguments: TransportKind.allCases)
    func unsignedRequestIs401(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            for service in SandboxService.allCases {
                let response = try await fixture.transport.send(
                    HTTPRequest(
                        method: .get,
                        url: fixture.sandbox.baseURL(for: service).appendingPathComponent("v1/users/alice"),
                        timeout: .seconds(10)))
                #expect(response.status == 401)
                #expect(response.headers["Content-Type"] == "application/problem+json")
                #expect(problem(of: response)?.code == "signature_missing")
                #expect(problem(of: response)?.detail?.contains("Signature-Input") == true)
            }
            let users = try fixture.users([])
            let refused = await expectProblem { try await users.profile(id: "alice") }
            #expect(refused?.status == 401)
        }
    }

    @Test func wrongSecretIs401() async throws {
        try await withSandbox { fixture in
            let impostor = try SigningKey(id: "user-1", tag: SandboxService.user.tag, secret: randomSecret())
            let users = try fixture.users(fixture.middlewares(for: .user, key: impostor))
            let refused = await expectProblem { try await users.profile(id: "alice") }
            #expect(refused?.status == 401)
            #expect(refused?.problem.code == "signature_invalid")
            #expect(refused?.problem.detail?.contains("invalid signature") == true)
        }
    }

    @Test func anotherModulesKeyIs401() async throws {
        try await withSandbox { fixture in
            // The feed key on the user upstream: not in its key ring.
            let withFeedKey = try fixture.users(fixture.middlewares(for: .user, key: fixture.keys.feed.signingKey))
            let unknown = await expectProblem { try await withFeedKey.profile(id: "alice") }
            #expect(unknown?.status == 401)
            #expect(unknown?.problem.code == "key_unknown")
            #expect(unknown?.problem.detail?.contains("feed-1") == true)
            // The user key id with the feed module's tag.
            let wrongTag = try SigningKey(id: "user-1", tag: SandboxService.feed.tag, secret: randomSecret())
            let tagged = try fixture.users(fixture.middlewares(for: .user, key: wrongTag))
            let mismatch = await expectProblem { try await tagged.profile(id: "alice") }
            #expect(mismatch?.problem.code == "tag_mismatch")
            // And the other way round: the user key on the payment upstream.
            let payments = try fixture.payments(
                fixture.middlewares(for: .payment, key: fixture.keys.user.signingKey))
            let refused = await expectProblem { try await payments.wallet(user: "alice") }
            #expect(refused?.problem.code == "key_unknown")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func headerTamperedAfterSigningIs401(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let digest = TamperingMiddleware { request in
                var request = request
                request.headers.replaceOrAdd(
                    name: "Content-Digest", value: "sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:")
                return request
            }
            let users = try fixture.users(fixture.middlewares(for: .user, after: [digest]))
            let refused = await expectProblem { try await users.introspect(token: "sandbox-alice") }
            #expect(refused?.status == 401)
            #expect(refused?.problem.code == "signature_invalid")

            let query = TamperingMiddleware { request in
                var request = request
                let text = request.url.absoluteString.replacingOccurrences(of: "limit=1", with: "limit=100")
                request.url = URL(string: text) ?? request.url
                return request
            }
            let paging = try fixture.users(fixture.middlewares(for: .user, after: [query]))
            let altered = await expectProblem { try await paging.followers(id: "alice", limit: 1) }
            #expect(altered?.problem.code == "signature_invalid")
        }
    }

    @Test func bodyTamperedAfterSigningIs401() async throws {
        try await withSandbox { fixture in
            let body = TamperingMiddleware { request in
                var request = request
                request.body = Data(#"{"token":"sandbox-bob"}"#.utf8)
                return request
            }
            let users = try fixture.users(fixture.middlewares(for: .user, after: [body]))
            let refused = await expectProblem { try await users.introspect(token: "sandbox-alice") }
            #expect(refused?.status == 401)
            #expect(refused?.problem.code == "digest_mismatch")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func replayedRequestIs401NamingTheReplay(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let recording = RecordingTransport(wrapping: fixture.transport)
            let users = try fixture.users(transport: ResendingTransport(wrapped: recording))
            let refused = await expectProblem { try await users.profile(id: "alice") }
            #expect(recording.responses.map(\.status) == [200, 401])
            #expect(refused?.status == 401)
            #expect(refused?.problem.code == "signature_replayed")
            #expect(refused?.problem.detail?.contains("replayed nonce") == true)
            // A replayed charge is refused: the money moves once, for the first send only.
            let payments = try fixture.payments(transport: ResendingTransport(wrapped: fixture.transport))
            let charge = await expectProblem {
                try await payments.createCharge(
                    payer: "alice", payee: "bob", amount: Money(amountMinor: 10, currency: .eur),
                    idempotencyKey: "replay")
            }
            #expect(charge?.problem.code == "signature_replayed")
            let balance = try await fixture.payments().wallet(user: "alice").balance.amountMinor
            #expect(balance == 100_000 - 10)
        }
    }

    @Test func expiredOrFutureSignatureIs401() async throws {
        try await withSandbox { fixture in
            for offset in [-600.0, -120.0, 600.0] {
                let users = try fixture.users(
                    fixture.middlewares(for: .user, clock: { Date().addingTimeInterval(offset) }))
                let refused = await expectProblem { try await users.profile(id: "alice") }
                #expect(refused?.status == 401, "offset \(offset)")
                #expect(refused?.problem.code == "signature_expired", "offset \(offset)")
            }
        }
    }

    @Test func signaturesMissingRequiredPartsAre401() async throws {
        try await withSandbox { fixture in
            let cases: [RequestSigner.Configuration] = [
                .init(includesNonce: false),
                .init(components: [.method, .path, .query]),
                .init(coversContentDigest: false),
            ]
            for configuration in cases {
                let users = try fixture.users(fixture.middlewares(for: .user, signer: configuration))
                let refused = await expectProblem { try await users.introspect(token: "sandbox-carol") }
                #expect(refused?.status == 401)
                #expect(refused?.problem.code == "signature_missing")
            }
        }
    }
}
