import Foundation
import HTTPTypes
import PaymentModule
import SandboxUpstreams
import ServiceCore
import ServiceTesting
import Testing

/// The payment upstream's idempotency and money rules through the real `PaymentClient`, with
/// the ledger in memory and in Redis: the same cases, the same answers.
@Suite(.timeLimit(.minutes(1)))
struct PaymentStoreTests {
    private func eur(_ minor: Int64) -> Money { Money(amountMinor: minor, currency: .eur) }

    @Test(arguments: LedgerStoreKind.allCases)
    func chargesRefundsAndReplays(_ kind: LedgerStoreKind) async throws {
        try await withLedgerStore(kind) { configuration, _ in
            try await withSandbox(configuration: configuration) { fixture in
                let recording = RecordingTransport(wrapping: fixture.transport)
                let payments = try fixture.payments(transport: recording)
                #expect(try await payments.wallet(user: "alice").balance == eur(100_000))
                let missing = await expectProblem { try await payments.wallet(user: "zed") }
                #expect(missing?.problem.code == "wallet_not_found")
                var charges: [Charge] = []
                for _ in 0..<3 {
                    charges.append(
                        try await payments.createCharge(
                            payer: "alice", payee: "carol", amount: eur(1000), memo: "dinner", idempotencyKey: "d-1"))
                }
                #expect(charges.allSatisfy { $0 == charges[0] })
                let created = recording.responses.filter { $0.status == 201 }
                #expect(created.count == 3)
                #expect(created.allSatisfy { $0.body == created[0].body })
                #expect(created[0].headers["Location"] == "/v1/charges/\(charges[0].id)")
                #expect(created[0].headers["Idempotent-Replayed"] == nil)
                #expect(created[1].headers["Idempotent-Replayed"] == "true")
                #expect(created[2].headers["Location"] == created[0].headers["Location"])
                #expect(created[2].headers["Content-Type"] == created[0].headers["Content-Type"])
                #expect(try await payments.charge(id: charges[0].id) == charges[0])

                let refund = try await payments.refund(charge: charges[0].id, amountMinor: 400, idempotencyKey: "r-1")
                #expect(
                    try await payments.refund(charge: charges[0].id, amountMinor: 400, idempotencyKey: "r-1") == refund)
                #expect(try await payments.charge(id: charges[0].id).status == .partiallyRefunded)
                let exceeding = await expectProblem {
                    try await payments.refund(charge: charges[0].id, amountMinor: 601, idempotencyKey: "r-2")
                }
                #expect(exceeding?.problem.code == "refund_exceeds_charge")
                // The refused answer is kept for its key: the repeat gets it again.
                let exceedingAgain = await expectProblem {
                    try await payments.refund(charge: charges[0].id, amountMinor: 601, idempotencyKey: "r-2")
                }
                #expect(exceedingAgain?.problem == exceeding?.problem)
                #expect(exceedingAgain?.headers["Idempotent-Replayed"] == "true")
                let reused = await expectProblem {
                    try await payments.createCharge(
                        payer: "alice", payee: "carol", amount: eur(1001), memo: "dinner", idempotencyKey: "d-1")
                }
                #expect(reused?.status == 422)
                #expect(reused?.problem.code == "idempotency_key_reused")
                let poor = await expectProblem {
                    try await payments.createCharge(
                        payer: "carol", payee: "bob", amount: eur(26_001), idempotencyKey: "poor")
                }
                #expect(poor?.problem.code == "insufficient_funds")
                #expect(try await payments.wallet(user: "alice").balance == eur(100_000 - 600))
                #expect(try await payments.wallet(user: "carol").balance == eur(25_000 + 600))
            }
        }
    }

    @Test(arguments: LedgerStoreKind.allCases)
    func concurrentRepeatsChargeOnce(_ kind: LedgerStoreKind) async throws {
        try await withLedgerStore(kind) { configuration, _ in
            try await withSandbox(configuration: configuration) { fixture in
                let payments = try fixture.payments()
                let ids = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<16 {
                        group.addTask {
                            try await payments.createCharge(
                                payer: "bob", payee: "alice", amount: eur(100), idempotencyKey: "race"
                            ).id
                        }
                    }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
                #expect(ids.count == 1)
                #expect(try await payments.wallet(user: "bob").balance == eur(50_000 - 100))
            }
        }
    }

    /// `GET /metrics` needs no signature and shows each upstream's replay guard.
    @Test(arguments: LedgerStoreKind.allCases)
    func metricsShowTheReplayGuard(_ kind: LedgerStoreKind) async throws {
        try await withLedgerStore(kind) { configuration, _ in
            try await withSandbox(configuration: configuration) { fixture in
                for _ in 0..<3 { _ = try await fixture.sendSigned(.get, "/v1/users/alice", to: .user) }
                let url = try #require(URL(string: fixture.sandbox.baseURLString(for: .user) + "/metrics"))
                let response = try await fixture.transport.send(HTTPRequest(method: .get, url: url))
                #expect(response.status == 200)
                #expect(response.headers["Content-Type"]?.hasPrefix("text/plain") == true)
                let text = String(decoding: response.body, as: UTF8.self)
                // The in-memory guard's fill; with Redis the nonces are there, and the upstream's
                // own guard holds only the reads checked during an outage.
                let held = kind == .memory ? 3 : 0
                #expect(text.contains("swifty_sandbox_replay_nonces{upstream=\"user\"} \(held)\n"))
                #expect(
                    text.contains(
                        "swifty_sandbox_replay_capacity{upstream=\"user\"} \(configuration.effectiveReplayCapacity)\n"))
                #expect(text.contains("# TYPE swifty_sandbox_redis_errors_total counter"))
                #expect(text.contains("swifty_sandbox_redis_errors_total{store=\"replay\"} 0\n"))
                // Anything else still needs a signature.
                let other = try await fixture.transport.send(
                    HTTPRequest(
                        method: .get,
                        url: try #require(URL(string: fixture.sandbox.baseURLString(for: .user) + "/v1/users/alice"))))
                #expect(other.status == 401)
            }
        }
    }
}
