import CurlTransport
import EventLoops
import Foundation
import HTTPFramingCorpus
import HTTPTypes
import RedisClient
import RedisTestSupport
import RequestSigning
import ServiceCore
import Testing

@testable import SandboxUpstreams

/// Two sandbox sets sharing one Redis, as two replicas of a payment service would: signed
/// charges spread over both, concurrent and with Redis stopped on the way.
@Suite(.timeLimit(.minutes(3)))
struct SharedLedgerTests {
    /// Two sandbox sets on one Redis (same keys, same prefix) and a transport.
    struct Pair: Sendable {
        let sandboxes: [SandboxUpstreams]
        let transport: CurlTransport

        /// A signed `POST /v1/charges` to sandbox `index % 2`.
        func charge(
            on index: Int, key: String, payer: String = "carol", payee: String = "bob", amount: Int64,
            currency: String = "EUR"
        ) async throws -> HTTPResponse {
            let body =
                #"{"amount":{"amountMinor":\#(amount),"currency":"\#(currency)"},"payeeId":"\#(payee)","payerId":"\#(payer)"}"#
            return try await send(.post, "/v1/charges", on: index, key: key, body: Data(body.utf8))
        }

        /// A signed request to the payment upstream of sandbox `index % 2`.
        func send(
            _ method: HTTPMethod, _ target: String, on index: Int, key: String? = nil, body: Data? = nil
        ) async throws -> HTTPResponse {
            let sandbox = sandboxes[index % sandboxes.count]
            let url = try #require(URL(string: sandbox.baseURLString(for: .payment) + target))
            var headers: HTTPHeaders = [:]
            if body != nil { headers.add(name: "Content-Type", value: "application/json") }
            if let key { headers.add(name: "Idempotency-Key", value: key) }
            let request = HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: .seconds(20))
            return try await transport.send(RequestSigner(key: sandbox.keys.payment.signingKey).sign(request))
        }

        /// A wallet's balance, read through sandbox `index % 2`.
        func balance(_ user: String, on index: Int = 0) async throws -> Int64 {
            let response = try await send(.get, "/v1/wallets/\(user)", on: index)
            #expect(response.status == 200)
            let wallet = try JSONDecoder().decode(WalletBody.self, from: response.body)
            return wallet.balance.amountMinor
        }
    }

    /// A charge's index and its answer.
    typealias Indexed = (index: Int, response: HTTPResponse)

    /// A charge's amount and its answer.
    typealias Answered = (amount: Int64, response: HTTPResponse)

    struct WalletBody: Decodable {
        struct Money: Decodable { var amountMinor: Int64 }
        var balance: Money
    }

    /// Runs `body` with two sandbox sets sharing `server` (or a new Redis of the test's own);
    /// `verifies: false` lets requests reach the ledger without the replay check.
    private func withPair(
        server given: RedisServer? = nil, verifies: Bool = true, _ body: (Pair, RedisServer) async throws -> Void
    ) async throws {
        let server: RedisServer
        if let given { server = given } else { server = try await RedisServer.start() }
        var configuration = SandboxFixture.quietConfiguration()
        configuration.redis = testRedisConfiguration(server)
        configuration.redisKeyPrefix = "pair:"
        configuration.verifiesSignatures = verifies
        let keys = try SandboxKeys.generate()
        var sandboxes: [SandboxUpstreams] = []
        let transport = CurlTransport()
        do {
            for _ in 0..<2 {
                sandboxes.append(try await SandboxUpstreams.start(keys: keys, configuration: configuration))
            }
            try await body(Pair(sandboxes: sandboxes, transport: transport), server)
        } catch {
            await transport.shutdown()
            for sandbox in sandboxes { await sandbox.shutdown(gracePeriod: .seconds(1)) }
            await server.stop()
            throw error
        }
        await transport.shutdown()
        for sandbox in sandboxes { await sandbox.shutdown(gracePeriod: .seconds(1)) }
        await server.stop()
    }

    @Test func twoHundredConcurrentChargesWithOneKeyChargeOnce() async throws {
        try await withPair { pair, _ in
            let before = try await pair.balance("carol")
            let responses = try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                for index in 0..<200 {
                    group.addTask { try await pair.charge(on: index, key: "one-key", amount: 125) }
                }
                return try await group.reduce(into: Array<HTTPResponse>()) { $0.append($1) }
            }
            #expect(responses.count == 200)
            let first = try #require(responses.first { $0.headers["Idempotent-Replayed"] == nil })
            #expect(first.status == 201)
            #expect(responses.filter { $0.headers["Idempotent-Replayed"] == nil }.count == 1)
            for response in responses {
                #expect(response.status == first.status)
                #expect(response.body == first.body)
                #expect(response.headers["Content-Type"] == first.headers["Content-Type"])
                #expect(response.headers["Location"] == first.headers["Location"])
            }
            #expect(try await pair.balance("carol", on: 1) == before - 125)
        }
    }

    @Test func concurrentChargesBeyondTheWalletNeverOverdraw() async throws {
        try await withPair { pair, _ in
            let payerBefore = try await pair.balance("carol")
            let payeeBefore = try await pair.balance("alice")
            let amounts: [Int64] = (0..<100).map { 300 + Int64($0 % 7) * 100 }
            #expect(amounts.reduce(0, +) > payerBefore)
            let results = try await withThrowingTaskGroup(of: Answered.self) { group in
                for (index, amount) in amounts.enumerated() {
                    group.addTask {
                        (
                            amount,
                            try await pair.charge(on: index, key: "spend-\(index)", payee: "alice", amount: amount)
                        )
                    }
                }
                return try await group.reduce(into: Array<Answered>()) { $0.append($1) }
            }
            let accepted = results.filter { $0.1.status == 201 }
            let refused = results.filter { $0.1.status != 201 }
            #expect(!accepted.isEmpty && !refused.isEmpty)
            for (_, response) in refused {
                #expect(response.status == 422)
                #expect(problem(of: response)?.code == "insufficient_funds")
            }
            let debited = accepted.map(\.0).reduce(0, +)
            let payerAfter = try await pair.balance("carol", on: 1)
            #expect(payerAfter >= 0)
            #expect(payerBefore - payerAfter == debited)
            #expect(try await pair.balance("alice", on: 0) - payeeBefore == debited)
            // Every refused amount would have overdrawn what was left.
            #expect(refused.allSatisfy { $0.0 > payerAfter })
        }
    }

    @Test func theSameKeyWithAnotherBodyIs422OnTheOtherSet() async throws {
        try await withPair { pair, _ in
            let first = try await pair.charge(on: 0, key: "reused", amount: 500)
            #expect(first.status == 201)
            let reused = try await pair.charge(on: 1, key: "reused", amount: 501)
            #expect(reused.status == 422)
            #expect(problem(of: reused)?.code == "idempotency_key_reused")
            let replayed = try await pair.charge(on: 1, key: "reused", amount: 500)
            #expect(replayed.status == 201)
            #expect(replayed.body == first.body)
            #expect(replayed.headers["Idempotent-Replayed"] == "true")
        }
    }

    /// Redis stops while charges arrive: they are refused with 503 `store_unavailable` naming the
    /// store; once it is back (same port, its data kept), every key is retried until it succeeds
    /// and nothing was charged twice.
    @Test func redisStoppedMidwayFailsClosedAndRecovers() async throws {
        let server = try await RedisServer.start(stablePort: true, arguments: ["--appendonly", "yes"])
        try await withPair(server: server) { pair, server in
            let before = try await pair.balance("carol")
            let keys = (0..<30).map { "outage-\($0)" }
            let amounts = (0..<30).map { Int64(10 + $0) }
            var firstAnswers: [String: Data] = [:]
            // Ten charges before the stop.
            for index in 0..<10 {
                let response = try await pair.charge(on: index, key: keys[index], amount: amounts[index])
                #expect(response.status == 201)
                firstAnswers[keys[index]] = response.body
            }
            // Twenty more at once, Redis stopped among them: each is charged or refused with 503.
            let during = try await withThrowingTaskGroup(of: Indexed.self) { group in
                for index in 10..<30 {
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(15 * (index - 10)))
                        return (index, try await pair.charge(on: index, key: keys[index], amount: amounts[index]))
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(30))
                    await server.kill()
                    return (-1, HTTPResponse(status: 0))
                }
                return try await group.reduce(into: Array<Indexed>()) { $0.append($1) }
            }
            for (index, response) in during where index >= 0 {
                #expect(response.status == 201 || response.status == 503, "\(keys[index])")
                if response.status == 201 { firstAnswers[keys[index]] = response.body }
                if response.status == 503 {
                    // Refused by the signature's replay check or by the ledger: both name the store.
                    let refusal = problem(of: response)
                    #expect(["replay_store_unavailable", "store_unavailable"].contains(refusal?.code ?? ""))
                    #expect(refusal?.detail?.contains("Redis") == true)
                    #expect(refusal?.detail?.contains("127.0.0.1:\(server.port ?? 0)") == true)
                    #expect(response.headers["Retry-After"] != nil)
                }
            }
            // Redis is down now: every charge is refused.
            let down = try await pair.charge(on: 0, key: keys[0], amount: amounts[0])
            #expect(down.status == 503)
            #expect(problem(of: down)?.code == "replay_store_unavailable")
            // Reads are checked against each upstream's own nonces meanwhile: one that needs no
            // shared state is answered, one that needs the ledger gets the ledger's 503.
            let users = try #require(URL(string: pair.sandboxes[1].baseURLString(for: .user) + "/v1/users/carol"))
            let profile = try await pair.transport.send(
                RequestSigner(key: pair.sandboxes[1].keys.user.signingKey).sign(HTTPRequest(method: .get, url: users)))
            #expect(profile.status == 200)
            let read = try await pair.send(.get, "/v1/wallets/carol", on: 1)
            #expect(read.status == 503)
            #expect(problem(of: read)?.code == "store_unavailable")
            try await server.restart()
            // Every key again, on the other set, until it succeeds (bounded). A charge that Redis
            // was stopped under may have left its key's lock behind (kept by the append-only
            // file): until that lock's lifetime ends, the key answers 409 with Retry-After.
            for index in 0..<30 {
                var response = try await pair.charge(on: index + 1, key: keys[index], amount: amounts[index])
                var tries = 1
                while response.status == 503 || response.status == 409, tries < 100 {
                    if response.status == 409 { #expect(response.headers["Retry-After"] == "1") }
                    try await Task.sleep(for: .milliseconds(100))
                    response = try await pair.charge(on: index + 1, key: keys[index], amount: amounts[index])
                    tries += 1
                }
                #expect(response.status == 201, "\(keys[index])")
                if let first = firstAnswers[keys[index]] {
                    #expect(response.body == first)
                    #expect(response.headers["Idempotent-Replayed"] == "true")
                }
            }
            #expect(try await pair.balance("carol") == before - amounts.reduce(0, +))
            // The sets' /metrics count the failed calls.
            let metrics = try await pair.transport.send(
                HTTPRequest(
                    method: .get,
                    url: try #require(URL(string: pair.sandboxes[0].baseURLString(for: .payment) + "/metrics"))))
            #expect(metrics.status == 200)
            let text = String(decoding: metrics.body, as: UTF8.self)
            let errors = text.split(separator: "\n").filter { $0.hasPrefix("swifty_sandbox_redis_errors_total{") }
            #expect(errors.count == 2)
            #expect(errors.map { Int($0.split(separator: " ").last ?? "") ?? 0 }.reduce(0, +) > 0)
        }
    }

    /// A Redis that lost its data (restarted empty) gets the seeded wallets again on the next
    /// call, without restarting the sandbox.
    @Test func anEmptiedRedisIsSeededAgain() async throws {
        try await withPair { pair, server in
            let charged = try await pair.charge(on: 0, key: "before-flush", amount: 700)
            #expect(charged.status == 201)
            #expect(try await pair.balance("carol") == 25_000 - 700)
            let loops = try EventLoopGroup(loopCount: 1, name: "flush")
            let client = RedisClient(configuration: testRedisConfiguration(server), eventLoops: loops)
            _ = try await client.send(["FLUSHALL"])
            await client.shutdown()
            await loops.shutdown()
            #expect(try await pair.balance("carol", on: 1) == 25_000)
            let again = try await pair.charge(on: 1, key: "after-flush", amount: 300)
            #expect(again.status == 201)
            #expect(try await pair.balance("carol") == 25_000 - 300)
        }
    }

    /// The ledger fails closed on its own: with no replay check in front, a stopped Redis is
    /// answered 503 `store_unavailable` naming it, reads too, and charges work again once it is
    /// back.
    @Test func theLedgerAnswersStoreUnavailable() async throws {
        let server = try await RedisServer.start(stablePort: true, arguments: ["--appendonly", "yes"])
        try await withPair(server: server, verifies: false) { pair, server in
            let first = try await pair.charge(on: 0, key: "ledger-1", amount: 40)
            #expect(first.status == 201)
            await server.kill()
            for response in [
                try await pair.charge(on: 1, key: "ledger-2", amount: 50),
                try await pair.charge(on: 0, key: "ledger-1", amount: 40),
                try await pair.send(.get, "/v1/wallets/carol", on: 1),
                try await pair.send(.get, "/v1/charges/ch_1", on: 0),
            ] {
                #expect(response.status == 503)
                #expect(problem(of: response)?.code == "store_unavailable")
                #expect(problem(of: response)?.detail?.contains("Redis at 127.0.0.1:\(server.port ?? 0)") == true)
                #expect(response.headers["Retry-After"] == "1")
            }
            try await server.restart()
            var again = try await pair.charge(on: 1, key: "ledger-2", amount: 50)
            for _ in 0..<100 where again.status == 503 {
                try await Task.sleep(for: .milliseconds(100))
                again = try await pair.charge(on: 1, key: "ledger-2", amount: 50)
            }
            #expect(again.status == 201)
            let replayed = try await pair.charge(on: 1, key: "ledger-1", amount: 40)
            #expect(replayed.body == first.body)
            #expect(try await pair.balance("carol") == 25_000 - 90)
        }
    }

    /// Nonces live in the shared Redis: a signed request one set accepted is refused by the
    /// other as replayed (the capture is sent with the first set's `Host`, as it was signed).
    @Test func aNonceOneSetAcceptedIsRefusedByTheOther() async throws {
        try await withPair { pair, _ in
            let first = try #require(URL(string: pair.sandboxes[0].baseURLString(for: .payment)))
            let signed = try RequestSigner(key: pair.sandboxes[0].keys.payment.signingKey).sign(
                HTTPRequest(method: .get, url: first.appendingPathComponent("v1/wallets/alice")))
            var text = "GET /v1/wallets/alice HTTP/1.1\r\nHost: \(first.host ?? ""):\(first.port ?? 0)\r\n"
            for field in signed.headers.fields { text += "\(field.name): \(field.value)\r\n" }
            text += "Connection: close\r\n\r\n"
            let original = try RawConnection(port: pair.sandboxes[0].port(for: .payment))
            try original.send(text)
            #expect(try original.readResponse().status == 200)
            let replay = try RawConnection(port: pair.sandboxes[1].port(for: .payment))
            try replay.send(text)
            let refused = try replay.readResponse()
            #expect(refused.status == 401)
            #expect(refused.bodyText.contains("\"signature_replayed\""), "\(refused.bodyText)")
        }
    }
}
