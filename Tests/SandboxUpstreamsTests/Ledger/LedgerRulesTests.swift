import EventLoops
import Foundation
import HTTPTypes
import RedisClient
import RedisTestSupport
import Testing

@testable import SandboxUpstreams

/// The ledger's rules, run through ``InMemoryPaymentLedger`` (whose checks are ``LedgerBook``'s)
/// and ``RedisPaymentLedger`` (whose checks are its Lua script's) with the same cases: each step
/// must end the same way in both, and the balances must agree at the end.
@Suite(.timeLimit(.minutes(1)))
struct LedgerRulesTests {
    /// One step of a case: an order and the failure it must meet, or `nil` for success.
    struct Step: Sendable {
        enum Action: Sendable {
            case charge(String, String, Int64, String)
            /// A refund of the charge made by an earlier step (by index), or of an unknown id.
            case refund(ofStep: Int?, Int64)
        }
        var action: Action
        var expected: LedgerFailure?
    }

    /// A case: steps from the seeded books plus two wallets (`dave` in USD, `rich` near the
    /// balance limit), and the balances at the end.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var steps: [Step]
        var balances: [String: Int64]
        var description: String { name }
    }

    static let limit = LedgerBook.maximumBalanceMinor

    static let cases: [Case] = [
        Case(
            name: "charge, then refunds up to the charge",
            steps: [
                Step(action: .charge("alice", "bob", 1250, "EUR"), expected: nil),
                Step(action: .refund(ofStep: 0, 400), expected: nil),
                Step(action: .refund(ofStep: 0, 851), expected: .refundExceedsCharge(amount: 851, left: 850)),
                Step(action: .refund(ofStep: 0, 850), expected: nil),
                Step(action: .refund(ofStep: 0, 1), expected: .refundExceedsCharge(amount: 1, left: 0)),
            ],
            balances: ["alice": 100_000, "bob": 50_000]),
        Case(
            name: "the payer's funds",
            steps: [
                Step(action: .charge("carol", "bob", 25_001, "EUR"), expected: .insufficientFunds(.payer)),
                Step(action: .charge("carol", "bob", 25_000, "EUR"), expected: nil),
                Step(action: .charge("carol", "alice", 1, "EUR"), expected: .insufficientFunds(.payer)),
            ],
            balances: ["carol": 0, "bob": 75_000, "alice": 100_000]),
        Case(
            name: "missing wallets",
            steps: [
                Step(action: .charge("carol", "zed", 5, "EUR"), expected: .walletNotFound(.payee, "zed")),
                Step(action: .charge("zed", "carol", 5, "EUR"), expected: .walletNotFound(.payer, "zed")),
                Step(action: .refund(ofStep: nil, 5), expected: .chargeNotFound("ch_999999")),
            ],
            balances: ["carol": 25_000]),
        Case(
            name: "currencies",
            steps: [
                Step(
                    action: .charge("carol", "bob", 5, "USD"),
                    expected: .currencyMismatch(.payer, requested: "USD", wallet: "EUR")),
                Step(
                    action: .charge("carol", "dave", 5, "EUR"),
                    expected: .currencyMismatch(.payee, requested: "EUR", wallet: "USD")),
            ],
            balances: ["carol": 25_000, "dave": 10]),
        Case(
            name: "the balance limit",
            steps: [
                Step(action: .charge("alice", "rich", 10, "EUR"), expected: .balanceLimit(.payee)),
                Step(action: .charge("rich", "alice", 5, "EUR"), expected: nil),
                Step(action: .charge("alice", "rich", 10, "EUR"), expected: nil),
                Step(action: .refund(ofStep: 1, 5), expected: .balanceLimit(.payer)),
            ],
            balances: ["alice": 99_995, "rich": limit]),
        Case(
            name: "a refund needs the payee's funds",
            steps: [
                Step(action: .charge("alice", "carol", 20_000, "EUR"), expected: nil),
                Step(action: .charge("carol", "bob", 44_000, "EUR"), expected: nil),
                Step(action: .refund(ofStep: 0, 20_000), expected: .insufficientFunds(.payee)),
                Step(action: .refund(ofStep: 0, 1000), expected: nil),
            ],
            balances: ["alice": 81_000, "carol": 0, "bob": 94_000]),
    ]

    @Test(arguments: LedgerStoreKind.allCases, cases)
    func theRulesHold(_ kind: LedgerStoreKind, _ testCase: Case) async throws {
        try await withLedger(kind) { ledger in
            var madeIDs: [Int: String] = [:]
            for (index, step) in testCase.steps.enumerated() {
                let order: LedgerOrder =
                    switch step.action {
                    case .charge(let payer, let payee, let amount, let currency):
                        .charge(
                            ChargeOrder(payer: payer, payee: payee, amountMinor: amount, currency: currency, memo: "m"))
                    case .refund(let stepIndex, let amount):
                        .refund(
                            RefundOrder(
                                chargeID: stepIndex.flatMap { madeIDs[$0] } ?? "ch_999999", amountMinor: amount))
                    }
                var seen: Result<LedgerEntry, Problem>?
                let outcome = try await ledger.perform(
                    IdempotentRequest(
                        scope: "rules", key: "step-\(index)", fingerprint: [UInt8(index)], order: .success(order)),
                    now: Date()
                ) { result in
                    seen = result
                    return StoredAnswer(status: 201, headers: [:], body: Data("step \(index)".utf8))
                }
                guard case .performed = outcome else {
                    Issue.record("step \(index) was not performed: \(outcome)")
                    continue
                }
                switch (seen, step.expected) {
                case (.success(.charge(let record)), nil):
                    madeIDs[index] = record.id
                    #expect(try await ledger.charge(record.id) == record, "step \(index)")
                case (.success(.refund(let record)), nil):
                    #expect(record.amountMinor > 0, "step \(index)")
                case (.failure(let problem), let expected?):
                    #expect(problem.code == expected.problem.code, "step \(index)")
                    #expect(problem.detail == expected.problem.detail, "step \(index)")
                default:
                    Issue.record(
                        "step \(index): expected \(String(describing: step.expected)), got \(String(describing: seen))")
                }
            }
            for (user, balance) in testCase.balances {
                #expect(try await ledger.wallet(user)?.balanceMinor == balance, "\(user)")
            }
        }
    }

    /// A repeat with the same key replays; another fingerprint is refused; the answer is kept
    /// byte for byte with its header fields.
    @Test(arguments: LedgerStoreKind.allCases)
    func keysReplayAndRefuse(_ kind: LedgerStoreKind) async throws {
        try await withLedger(kind) { ledger in
            let order = LedgerOrder.charge(
                ChargeOrder(payer: "alice", payee: "bob", amountMinor: 10, currency: "EUR", memo: nil))
            let request = IdempotentRequest(scope: "s", key: "k", fingerprint: [1, 2, 3], order: .success(order))
            let answer = StoredAnswer(
                status: 201, headers: ["Content-Type": "application/json", "Location": "/v1/charges/x"],
                body: Data([0, 1, 0xFF, 0x0A, 0x7B]))
            let first = try await ledger.perform(request, now: Date()) { _ in answer }
            #expect(first == .performed(answer))
            let again = try await ledger.perform(request, now: Date()) { _ in
                StoredAnswer(status: 500, headers: [:], body: Data())
            }
            #expect(again == .replayed(answer))
            var other = request
            other.fingerprint = [9]
            #expect(try await ledger.perform(other, now: Date()) { _ in answer } == .keyReused)
            var elsewhere = request
            elsewhere.scope = "t"
            #expect(try await ledger.perform(elsewhere, now: Date()) { _ in answer } == .performed(answer))
            #expect(try await ledger.wallet("alice")?.balanceMinor == 100_000 - 20)
            // A refused request's answer is kept too, and moves nothing.
            let refused = IdempotentRequest(
                scope: "s", key: "bad", fingerprint: [4], order: .failure(Problem(.invalidRequest, "no")))
            let problemAnswer = StoredAnswer(status: 400, headers: [:], body: Data("no".utf8))
            #expect(try await ledger.perform(refused, now: Date()) { _ in problemAnswer } == .performed(problemAnswer))
            #expect(try await ledger.perform(refused, now: Date()) { _ in answer } == .replayed(problemAnswer))
            #expect(try await ledger.wallet("alice")?.balanceMinor == 100_000 - 20)
        }
    }

    /// Runs `body` with a seeded ledger of the kind, plus `dave` (USD 10) and `rich` (5 below the
    /// balance limit).
    private func withLedger(_ kind: LedgerStoreKind, _ body: (any PaymentLedger) async throws -> Void) async throws {
        switch kind {
        case .memory:
            var book = LedgerBook.seeded
            book.wallets["dave"] = WalletRecord(userID: "dave", balanceMinor: 10, currency: "USD")
            book.wallets["rich"] = WalletRecord(userID: "rich", balanceMinor: Self.limit - 5, currency: "EUR")
            try await body(InMemoryPaymentLedger(book: book))
        case .redis:
            try await RedisServer.with { server in
                try await server.withClient { client in
                    let prefix = "rules:"
                    _ = try await client.send([
                        "HSET", RedisArgument(prefix + "wallet:dave"), "balance", "10", "currency", "USD",
                    ])
                    _ = try await client.send([
                        "HSET", RedisArgument(prefix + "wallet:rich"), "balance",
                        RedisArgument(String(Self.limit - 5)), "currency", "EUR",
                    ])
                    let ledger = RedisPaymentLedger(client: client, keyPrefix: prefix, metrics: SandboxMetrics())
                    try await ledger.seed()
                    try await body(ledger)
                }
            }
        }
    }

    /// A key whose first request still holds the lock (here a lock taken by hand, as a holder
    /// on another set would) is answered `keyInUse` after the bounded wait; once the lock is
    /// gone the request runs.
    @Test func aHeldKeyIsInUse() async throws {
        try await RedisServer.with { server in
            try await server.withClient { client in
                let ledger = RedisPaymentLedger(client: client, keyPrefix: "held:", metrics: SandboxMetrics())
                try await ledger.seed()
                let lock = RedisArgument("held:idempotency-lock:s\u{0}k")
                _ = try await client.send(["SET", lock, "another-holder", "PX", "60000"])
                let order = LedgerOrder.charge(
                    ChargeOrder(payer: "alice", payee: "bob", amountMinor: 10, currency: "EUR", memo: nil))
                let request = IdempotentRequest(scope: "s", key: "k", fingerprint: [1], order: .success(order))
                let answer = StoredAnswer(status: 201, headers: [:], body: Data("made".utf8))
                #expect(try await ledger.perform(request, now: Date()) { _ in answer } == .keyInUse)
                #expect(try await ledger.wallet("alice")?.balanceMinor == 100_000)
                _ = try await client.send(["DEL", lock])
                #expect(try await ledger.perform(request, now: Date()) { _ in answer } == .performed(answer))
                #expect(try await ledger.wallet("alice")?.balanceMinor == 100_000 - 10)
            }
        }
    }
}
