import EventLoops
import Foundation
import HTTPTypes
import RedisClient
import RedisStores
import RedisTestSupport
import RequestSigning
import Testing

/// The Redis replay guard against a real redis-server: one answer per nonce across replicas,
/// keys that expire with the signature's window, and a verifier that fails closed while Redis is
/// down and recovers when it is back.
@Suite(.timeLimit(.minutes(1)))
struct RedisReplayGuardTests {
    /// The RFC 9421 test key `test-shared-secret` (appendix B.1.4).
    static func key() throws -> SigningKey {
        let secret = try #require(
            Data(
                base64Encoded:
                    "uzvJfB4u3N0Jy4T7NZ75MDVcr8zSTInedJtkgcu46YW4XByzNJjxBdtjUkdJPBtbmHhIDi6pcl8jsasjlTMtDQ=="))
        return try SigningKey(id: "test-shared-secret", tag: nil, secret: Array(secret))
    }

    /// A request as a replica receives it, freshly signed (a new nonce each time).
    static func signedRequest() throws -> SignableMessage {
        let request = HTTPRequest(
            method: .post, url: URL(string: "https://example.com/foo?param=Value&Pet=dog")!,
            headers: ["Content-Type": "application/json"], body: Data("{\"hello\": \"world\"}".utf8))
        let signed = try RequestSigner(key: try key()).sign(request)
        var headers = HTTPHeaders([("Host", "example.com")])
        headers.append(contentsOf: signed.headers)
        return try SignableMessage(
            method: "POST", scheme: "https", requestTarget: "/foo?param=Value&Pet=dog", headers: headers,
            body: signed.body)
    }

    /// Runs `body` with a client of `server` on a loop of its own.
    func withClient(
        _ server: RedisServer, connections: Int = 4, _ body: (RedisClient) async throws -> Void
    ) async throws {
        try await server.withClient(configure: { $0.maximumConnectionsPerLoop = connections }, body)
    }

    @Test func aNonceIsFreshOnceAndKeysCannotBeConfused() async throws {
        try await RedisServer.with { server in
            try await withClient(server) { client in
                let replayGuard = RedisReplayGuard(client: client)
                let now = Date()
                let expires = now.addingTimeInterval(60)
                let first = ReplayNonce(keyID: "a:b", nonce: "c")
                let second = ReplayNonce(keyID: "a", nonce: "b:c")
                #expect(await replayGuard.checkAndRemember(first, expiresAt: expires, now: now) == .fresh)
                #expect(await replayGuard.checkAndRemember(first, expiresAt: expires, now: now) == .replayed)
                #expect(await replayGuard.checkAndRemember(second, expiresAt: expires, now: now) == .fresh)
                #expect(await replayGuard.checkAndRemember(second, expiresAt: expires, now: now) == .replayed)
                #expect(replayGuard.key(for: first) != replayGuard.key(for: second))
                #expect(String(decoding: replayGuard.key(for: first), as: UTF8.self) == "swifty:replay:3:a:b:c")

                // The key lives as long as the signature is acceptable, no longer.
                let ttl = try await client.send(["PTTL", RedisArgument(bytes: replayGuard.key(for: first))])
                let milliseconds = try #require(ttl.integerValue)
                #expect(milliseconds > 0 && milliseconds <= 60_000)

                // Another prefix is another set of replicas.
                let other = RedisReplayGuard(client: client, keyPrefix: "other:")
                #expect(await other.checkAndRemember(first, expiresAt: expires, now: now) == .fresh)
            }
        }
    }

    /// Two verifiers are two replicas: a signed request accepted by one is refused by the other.
    @Test func twoReplicasSharingRedisRefuseEachOthersReplays() async throws {
        try await RedisServer.with { server in
            try await withClient(server) { first in
                try await withClient(server) { second in
                    let ring = try KeyRing([try Self.key()])
                    let replicaA = SignatureVerifier(keyRing: ring, replayGuard: RedisReplayGuard(client: first))
                    let replicaB = SignatureVerifier(keyRing: ring, replayGuard: RedisReplayGuard(client: second))
                    let captured = try Self.signedRequest()
                    let verified = try await replicaA.verify(captured)
                    #expect(verified.keyID == "test-shared-secret")
                    do {
                        _ = try await replicaB.verify(captured)
                        Issue.record("the other replica accepted a replay")
                    } catch let error as SignatureVerificationError {
                        #expect(error.code == .replayedNonce)
                    }
                    // Each replica accepts requests of its own.
                    _ = try await replicaB.verify(try Self.signedRequest())
                    _ = try await replicaA.verify(try Self.signedRequest())
                }
            }
        }
    }

    @Test func nonceKeysExpireWithTheWindow() async throws {
        try await RedisServer.with { server in
            try await withClient(server) { client in
                let replayGuard = RedisReplayGuard(client: client)
                let nonce = ReplayNonce(keyID: "k", nonce: "short-lived")
                let now = Date()
                #expect(
                    await replayGuard.checkAndRemember(nonce, expiresAt: now.addingTimeInterval(0.5), now: now)
                        == .fresh)
                // The key carries the window as its expiry (-2: already expired on a slow machine;
                // -1, no expiry, would keep it forever).
                let window = try #require(
                    try await client.send(["PTTL", RedisArgument(bytes: replayGuard.key(for: nonce))]).integerValue)
                #expect(window == -2 || (1...500).contains(window), "PTTL \(window)")
                // Redis drops the key itself once the window has passed (a bounded wait).
                var left: Int64 = 1
                for _ in 0..<200 where left != 0 {
                    try await Task.sleep(for: .milliseconds(50))
                    left = try #require(try await client.send(["DBSIZE"]).integerValue)
                }
                #expect(left == 0)
                let later = Date()
                #expect(
                    await replayGuard.checkAndRemember(nonce, expiresAt: later.addingTimeInterval(60), now: later)
                        == .fresh)
                // A window already over still stores the key for a millisecond, never forever.
                let stale = ReplayNonce(keyID: "k", nonce: "stale")
                #expect(await replayGuard.checkAndRemember(stale, expiresAt: later, now: later) == .fresh)
                let ttl = try #require(
                    try await client.send(["PTTL", RedisArgument(bytes: replayGuard.key(for: stale))]).integerValue)
                #expect(ttl == -2 || (0...1).contains(ttl), "PTTL \(ttl)")
            }
        }
    }

    /// Redis stopped: the verifier refuses with its own error naming the store; Redis back: the
    /// same verifier and client accept again.
    @Test func aStoppedRedisFailsClosedAndARestartedOneRecovers() async throws {
        let server = try await RedisServer.start(stablePort: true)
        do {
            try await withClient(server) { client in
                let verifier = SignatureVerifier(
                    keyRing: try KeyRing([try Self.key()]), replayGuard: RedisReplayGuard(client: client))
                _ = try await verifier.verify(try Self.signedRequest())

                await server.kill()
                let refused = try Self.signedRequest()
                do {
                    _ = try await verifier.verify(refused)
                    Issue.record("a request was accepted while its nonce could not be checked")
                } catch let error as SignatureVerificationError {
                    #expect(error.code == .replayStoreUnavailable)
                    #expect(error.message.contains("Redis replay store at \(server.endpoint)"), "\(error)")
                }

                try await server.restart()
                var accepted: VerifiedSignature?
                var lastError: SignatureVerificationError?
                for _ in 0..<100 where accepted == nil {
                    do {
                        accepted = try await verifier.verify(try Self.signedRequest())
                    } catch let error as SignatureVerificationError {
                        lastError = error
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
                #expect(accepted != nil, "still refused after the restart: \(String(describing: lastError))")
                // The request refused while Redis was down was never recorded, and is accepted now.
                _ = try await verifier.verify(refused)
                do {
                    _ = try await verifier.verify(refused)
                    Issue.record("a replay was accepted after the restart")
                } catch let error as SignatureVerificationError {
                    #expect(error.code == .replayedNonce)
                }
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Checks made at once share pipelines: each nonce is still fresh exactly once, and when
    /// Redis is gone every waiting check gets an answer.
    @Test func concurrentChecksAreEachAnsweredOnce() async throws {
        let server = try await RedisServer.start(stablePort: true)
        do {
            try await withClient(server, connections: 1) { client throws in
                let replayGuard = RedisReplayGuard(client: client)
                let now = Date()
                let results = await withTaskGroup(of: (Int, ReplayCheckResult).self) { group in
                    for index in 0..<400 {
                        group.addTask {
                            let nonce = ReplayNonce(keyID: "k", nonce: "n\(index % 200)")
                            return (
                                index % 200,
                                await replayGuard.checkAndRemember(
                                    nonce, expiresAt: now.addingTimeInterval(60), now: now)
                            )
                        }
                    }
                    return await group.reduce(into: [Int: [ReplayCheckResult]]()) { $0[$1.0, default: []].append($1.1) }
                }
                #expect(results.count == 200)
                for (index, answers) in results {
                    #expect(answers.filter { $0 == .fresh }.count == 1, "nonce \(index): \(answers)")
                    #expect(answers.filter { $0 == .replayed }.count == 1, "nonce \(index): \(answers)")
                }
                #expect(try await client.send(["DBSIZE"]) == .integer(200))

                await server.kill()
                let refused = await withTaskGroup(of: ReplayCheckResult.self) { group in
                    for index in 0..<100 {
                        group.addTask {
                            await replayGuard.checkAndRemember(
                                ReplayNonce(keyID: "k", nonce: "down-\(index)"), expiresAt: now.addingTimeInterval(60),
                                now: now)
                        }
                    }
                    return await group.reduce(into: [ReplayCheckResult]()) { $0.append($1) }
                }
                #expect(refused.count == 100)
                #expect(refused.allSatisfy { if case .storeUnavailable = $0 { true } else { false } }, "\(refused)")
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// A check whose task is cancelled (its client went away) shares its connection with other
    /// tasks' checks: those are answered all the same.
    @Test func aCancelledCheckDoesNotFailTheOthersOnItsConnection() async throws {
        try await RedisServer.with { server in
            try await withClient(server, connections: 1) { client throws in
                let replayGuard = RedisReplayGuard(client: client)
                let now = Date()
                let tasks = (0..<200).map { index in
                    Task {
                        await replayGuard.checkAndRemember(
                            ReplayNonce(keyID: "k", nonce: "c\(index)"), expiresAt: now.addingTimeInterval(60), now: now
                        )
                    }
                }
                for (index, task) in tasks.enumerated() where index % 2 == 0 { task.cancel() }
                for (index, task) in tasks.enumerated() where index % 2 == 1 {
                    #expect(await task.value == .fresh, "check \(index)")
                }
                for task in tasks { _ = await task.value }
            }
        }
    }
}
