import Foundation
import HTTPTypes
import PaymentModule
import SandboxUpstreams
import ServiceCore
import ServiceTesting
import Testing

/// The payment upstream through the real `PaymentClient`, signed, over both real transports.
@Suite(.timeLimit(.minutes(1)))
struct PaymentUpstreamTests {
    private func eur(_ minor: Int64) -> Money { Money(amountMinor: minor, currency: .eur) }

    @Test(arguments: TransportKind.allCases)
    func seededWallets(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let payments = try fixture.payments()
            #expect(try await payments.wallet(user: "alice") == Wallet(userId: "alice", balance: eur(100_000)))
            #expect(try await payments.wallet(user: "bob").balance == eur(50_000))
            #expect(try await payments.wallet(user: "carol").balance == eur(25_000))
            let missing = await expectProblem { try await payments.wallet(user: "zed") }
            #expect(missing?.status == 404)
            #expect(missing?.problem.code == "wallet_not_found")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func chargeReplaysForTheSameKey(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let recording = RecordingTransport(wrapping: fixture.transport)
            let payments = try fixture.payments(transport: recording)
            let key = PaymentClient.makeIdempotencyKey()
            var charges: [Charge] = []
            for _ in 0..<3 {
                charges.append(
                    try await payments.createCharge(
                        payer: "alice", payee: "bob", amount: eur(1250), memo: "lunch", idempotencyKey: key))
            }
            #expect(Set(charges.map(\.id)).count == 1)
            #expect(charges.allSatisfy { $0 == charges[0] })
            let charge = charges[0]
            #expect(charge.payerId == "alice" && charge.payeeId == "bob")
            #expect(charge.amount == eur(1250) && charge.refunded == eur(0))
            #expect(charge.memo == "lunch")
            #expect(charge.status == .succeeded)
            // One balance change only.
            #expect(try await payments.wallet(user: "alice").balance == eur(100_000 - 1250))
            #expect(try await payments.wallet(user: "bob").balance == eur(50_000 + 1250))
            // The first answer is 201 with Location; the repeats are the same bytes, marked replayed.
            let responses = recording.responses.filter { $0.status == 201 }
            #expect(responses.count == 3)
            #expect(responses.allSatisfy { $0.body == responses[0].body })
            #expect(responses[0].headers["Location"] == "/v1/charges/\(charge.id)")
            #expect(responses[0].headers["Idempotent-Replayed"] == nil)
            #expect(responses[1].headers["Idempotent-Replayed"] == "true")
            #expect(responses[2].headers["Location"] == "/v1/charges/\(charge.id)")
            #expect(try await payments.charge(id: charge.id) == charge)
        }
    }

    @Test func sameKeyWithAnotherBodyIs422() async throws {
        try await withSandbox { fixture in
            let payments = try fixture.payments()
            let key = "order-42"
            _ = try await payments.createCharge(payer: "alice", payee: "bob", amount: eur(500), idempotencyKey: key)
            let reused = await expectProblem {
                try await payments.createCharge(payer: "alice", payee: "bob", amount: eur(501), idempotencyKey: key)
            }
            #expect(reused?.status == 422)
            #expect(reused?.problem.code == "idempotency_key_reused")
            // The same key on a refund is another operation too.
            let charge = try await payments.createCharge(
                payer: "alice", payee: "carol", amount: eur(100), idempotencyKey: "order-43")
            let onRefund = await expectProblem {
                try await payments.refund(charge: charge.id, amountMinor: 10, idempotencyKey: key)
            }
            #expect(onRefund?.problem.code == "idempotency_key_reused")
            #expect(try await payments.wallet(user: "alice").balance == eur(100_000 - 600))
        }
    }

    /// Records are kept per payer: another payer's identical key is another operation.
    @Test func theSameKeyFromTwoPayersMakesTwoCharges() async throws {
        try await withSandbox { fixture in
            let payments = try fixture.payments()
            let key = "shared-order-7"
            let carolBefore = try await payments.wallet(user: "carol").balance.amountMinor
            let fromAlice = try await payments.createCharge(
                payer: "alice", payee: "carol", amount: eur(300), idempotencyKey: key)
            let fromBob = try await payments.createCharge(
                payer: "bob", payee: "carol", amount: eur(300), idempotencyKey: key)
            #expect(fromAlice.id != fromBob.id)
            #expect(fromBob.payerId == "bob")
            let again = try await payments.createCharge(
                payer: "alice", payee: "carol", amount: eur(300), idempotencyKey: key)
            #expect(again == fromAlice)
            #expect(try await payments.wallet(user: "carol").balance == eur(carolBefore + 600))
        }
    }

    @Test func sameJSONValueInAnotherOrderReplays() async throws {
        try await withSandbox { fixture in
            let json: HTTPHeaders = ["Content-Type": "application/json", "Idempotency-Key": "k-order"]
            let first = try await fixture.sendSigned(
                .post, "/v1/charges", to: .payment, headers: json,
                body: Data(#"{"amount":{"amountMinor":700,"currency":"EUR"},"payeeId":"bob","payerId":"carol"}"#.utf8))
            #expect(first.status == 201)
            let second = try await fixture.sendSigned(
                .post, "/v1/charges", to: .payment, headers: json,
                body: Data(
                    #" { "payerId" : "carol", "payeeId":"bob", "amount":{"currency":"EUR","amountMinor":700}} "#.utf8))
            #expect(second.status == 201)
            #expect(second.body == first.body)
            #expect(second.headers["Idempotent-Replayed"] == "true")
        }
    }

    @Test func idempotencyKeyRules() async throws {
        try await withSandbox { fixture in
            let body = Data(#"{"amount":{"amountMinor":700,"currency":"EUR"},"payeeId":"bob","payerId":"carol"}"#.utf8)
            for key in [nil, "", "has space", String(repeating: "k", count: 256)] {
                var headers: HTTPHeaders = ["Content-Type": "application/json"]
                if let key { headers.add(name: "Idempotency-Key", value: key) }
                let response = try await fixture.sendSigned(
                    .post, "/v1/charges", to: .payment, headers: headers, body: body)
                #expect(response.status == 400, "\(key ?? "nil")")
                #expect(problem(of: response)?.code == "idempotency_key_missing")
            }
            #expect(try await fixture.payments().wallet(user: "carol").balance == eur(25_000))
            // A 4xx answer is kept for its key too: the repeat gets the same 400.
            let bad = Data(#"{"amount":{"amountMinor":12.5,"currency":"EUR"},"payeeId":"bob","payerId":"carol"}"#.utf8)
            let headers: HTTPHeaders = ["Content-Type": "application/json", "Idempotency-Key": "k-bad"]
            let first = try await fixture.sendSigned(.post, "/v1/charges", to: .payment, headers: headers, body: bad)
            #expect(first.status == 400)
            #expect(problem(of: first)?.detail?.contains("amountMinor") == true)
            let again = try await fixture.sendSigned(.post, "/v1/charges", to: .payment, headers: headers, body: bad)
            #expect(again.status == 400)
            #expect(again.body == first.body)
            #expect(again.headers["Idempotent-Replayed"] == "true")
        }
    }

    @Test func chargeErrors() async throws {
        try await withSandbox { fixture in
            let payments = try fixture.payments()
            let poor = await expectProblem {
                try await payments.createCharge(
                    payer: "carol", payee: "bob", amount: eur(25_001), idempotencyKey: "too-much")
            }
            #expect(poor?.status == 422)
            #expect(poor?.problem.code == "insufficient_funds")
            let dollars = await expectProblem {
                try await payments.createCharge(
                    payer: "carol", payee: "bob", amount: Money(amountMinor: 5, currency: .usd), idempotencyKey: "usd")
            }
            #expect(dollars?.problem.code == "currency_mismatch")
            let nobody = await expectProblem {
                try await payments.createCharge(payer: "carol", payee: "zed", amount: eur(5), idempotencyKey: "zed")
            }
            #expect(nobody?.status == 404)
            #expect(nobody?.problem.code == "wallet_not_found")
            #expect(nobody?.problem.detail?.contains("payee") == true)
            let missing = await expectProblem { try await payments.charge(id: "ch_999") }
            #expect(missing?.problem.code == "charge_not_found")
            #expect(try await payments.wallet(user: "carol").balance == eur(25_000))
            // Bodies the module would refuse, sent raw.
            let rawCases = [
                #"{"amount":{"amountMinor":1e3,"currency":"EUR"},"payeeId":"bob","payerId":"carol"}"#,
                #"{"amount":{"amountMinor":0,"currency":"EUR"},"payeeId":"bob","payerId":"carol"}"#,
                #"{"amount":{"amountMinor":9007199254740992,"currency":"EUR"},"payeeId":"bob","payerId":"carol"}"#,
                #"{"amount":{"amountMinor":5,"currency":"eur"},"payeeId":"bob","payerId":"carol"}"#,
                #"{"amount":{"amountMinor":5,"currency":"EUR"},"payeeId":"carol","payerId":"carol"}"#,
                #"{"amount":{"amountMinor":5,"currency":"EUR"},"payeeId":"bob","payerId":"carol","memo":""}"#,
                #"{"amount":{"amountMinor":5,"currency":"EUR"},"payeeId":"bob","payerId":"carol","payerId":"bob"}"#,
                #"{"amount":"5 EUR","payeeId":"bob","payerId":"carol"}"#,
            ]
            for (index, body) in rawCases.enumerated() {
                let response = try await fixture.sendSigned(
                    .post, "/v1/charges", to: .payment,
                    headers: ["Content-Type": "application/json", "Idempotency-Key": "raw-\(index)"],
                    body: Data(body.utf8))
                #expect(response.status == 400, "\(body)")
                #expect(problem(of: response)?.code == "invalid_request", "\(body)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func refundsMoveMoneyBackOnce(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let payments = try fixture.payments()
            let charge = try await payments.createCharge(
                payer: "alice", payee: "carol", amount: eur(1000), idempotencyKey: "dinner")
            let refund = try await payments.refund(charge: charge.id, amountMinor: 400, idempotencyKey: "r-1")
            #expect(refund.chargeId == charge.id)
            #expect(refund.amount == eur(400))
            let replay = try await payments.refund(charge: charge.id, amountMinor: 400, idempotencyKey: "r-1")
            #expect(replay == refund)
            let partial = try await payments.charge(id: charge.id)
            #expect(partial.refunded == eur(400))
            #expect(partial.status == .partiallyRefunded)
            #expect(try await payments.wallet(user: "alice").balance == eur(100_000 - 600))
            #expect(try await payments.wallet(user: "carol").balance == eur(25_000 + 600))
            let exceeding = await expectProblem {
                try await payments.refund(charge: charge.id, amountMinor: 601, idempotencyKey: "r-2")
            }
            #expect(exceeding?.status == 422)
            #expect(exceeding?.problem.code == "refund_exceeds_charge")
            _ = try await payments.refund(charge: charge.id, amountMinor: 600, idempotencyKey: "r-3")
            let full = try await payments.charge(id: charge.id)
            #expect(full.status == .refunded)
            #expect(full.refunded == full.amount)
            #expect(try await payments.wallet(user: "alice").balance == eur(100_000))
            let unknown = await expectProblem {
                try await payments.refund(charge: "ch_404", amountMinor: 1, idempotencyKey: "r-4")
            }
            #expect(unknown?.status == 404)
            #expect(unknown?.problem.code == "charge_not_found")
        }
    }

    @Test func refundNeedsThePayeesFunds() async throws {
        try await withSandbox { fixture in
            let payments = try fixture.payments()
            let charge = try await payments.createCharge(
                payer: "alice", payee: "carol", amount: eur(20_000), idempotencyKey: "big")
            // carol spends almost everything, so she cannot give the whole charge back.
            _ = try await payments.createCharge(
                payer: "carol", payee: "bob", amount: eur(44_000), idempotencyKey: "spend")
            let broke = await expectProblem {
                try await payments.refund(charge: charge.id, amountMinor: 20_000, idempotencyKey: "back")
            }
            #expect(broke?.problem.code == "insufficient_funds")
            #expect(try await payments.charge(id: charge.id).refunded == eur(0))
        }
    }

    // Concurrent repeats of one key, in memory and in Redis: PaymentStoreTests.
}
