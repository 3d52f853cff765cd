import Foundation
import PaymentModule
import ServiceCore
import ServiceTesting
import Testing

/// The typed client: answers decoded from sample bodies, error envelopes from non-2xx answers,
/// and bad input refused before anything reaches the transport.
struct PaymentClientTests {
    static let base = "https://payments.api.example.com"
    static let chargeJSON = """
        {"id":"ch_1","payerId":"alice","payeeId":"bob","amount":{"amountMinor":1250,"currency":"EUR"},
         "refunded":{"amountMinor":0,"currency":"EUR"},"memo":"lunch","status":"succeeded",
         "createdAt":"2026-03-01T12:00:00Z"}
        """
    static let charge = Charge(
        id: "ch_1",
        payerId: "alice",
        payeeId: "bob",
        amount: Money(amountMinor: 1250, currency: .eur),
        refunded: Money(amountMinor: 0, currency: .eur),
        memo: "lunch",
        status: .succeeded,
        createdAt: Date(timeIntervalSince1970: 1_772_366_400)
    )

    static func client(_ transport: MockTransport) throws -> PaymentClient {
        try PaymentClient(domain: .init(environment: .production), transport: transport)
    }

    // MARK: - Answers

    @Test
    func walletDecodes() async throws {
        let transport = MockTransport().on(
            .operation("wallet", module: "PaymentModule"),
            .json(200, #"{"userId":"alice","balance":{"amountMinor":100000,"currency":"EUR"}}"#),
            afterwards: .fail
        )
        let wallet = try await Self.client(transport).wallet(user: "alice")
        #expect(wallet == Wallet(userId: "alice", balance: Money(amountMinor: 100_000, currency: .eur)))
        #expect(transport.requests.map(\.url.absoluteString) == ["\(Self.base)/v1/wallets/alice"])
    }

    @Test
    func createChargeDecodesTheCharge() async throws {
        let transport = MockTransport.always(.json(201, Self.chargeJSON))
        let charge = try await Self.client(transport).createCharge(
            payer: "alice",
            payee: "bob",
            amount: Money(amountMinor: 1250, currency: .eur),
            memo: "lunch",
            idempotencyKey: "k-1"
        )
        #expect(charge == Self.charge)
        #expect(transport.requests.first?.headers["Idempotency-Key"] == "k-1")
    }

    @Test
    func chargeWithoutMemoDecodes() async throws {
        let transport = MockTransport.always(
            .json(
                200,
                """
                {"id":"ch_2","payerId":"bob","payeeId":"carol","amount":{"amountMinor":300,"currency":"JPY"},
                 "refunded":{"amountMinor":300,"currency":"JPY"},"status":"refunded","createdAt":"2026-03-01T12:00:00Z"}
                """))
        let charge = try await Self.client(transport).charge(id: "ch_2")
        #expect(charge.memo == nil)
        #expect(charge.status == .refunded)
        #expect(charge.refunded == Money(amountMinor: 300, currency: .jpy))
    }

    @Test
    func partiallyRefundedStatusDecodes() throws {
        let json = Self.chargeJSON.replacingOccurrences(of: "\"succeeded\"", with: "\"partiallyRefunded\"")
        #expect(try JSONDecoder().decode(Charge.self, from: Data(json.utf8)).status == .partiallyRefunded)
    }

    @Test
    func refundDecodes() async throws {
        let transport = MockTransport.always(
            .json(
                201,
                #"{"id":"re_1","chargeId":"ch_1","amount":{"amountMinor":500,"currency":"EUR"},"createdAt":"2026-03-01T12:00:00Z"}"#
            ))
        let refund = try await Self.client(transport).refund(charge: "ch_1", amountMinor: 500, idempotencyKey: "r-1")
        #expect(
            refund
                == Refund(
                    id: "re_1",
                    chargeId: "ch_1",
                    amount: Money(amountMinor: 500, currency: .eur),
                    createdAt: Date(timeIntervalSince1970: 1_772_366_400)
                )
        )
    }

    @Test
    func chargeRoundTripsThroughJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var noMemo = Self.charge
        noMemo.memo = nil
        let text = String(decoding: try encoder.encode(noMemo), as: UTF8.self)
        #expect(!text.contains("memo"))
        #expect(text.contains(#""createdAt":"2026-03-01T12:00:00Z""#))
        #expect(try JSONDecoder().decode(Charge.self, from: Data(text.utf8)) == noMemo)
    }

    @Test
    func unknownCurrencyInAnAnswerStillDecodes() throws {
        let money = try JSONDecoder().decode(Money.self, from: Data(#"{"amountMinor":5,"currency":"XTS"}"#.utf8))
        #expect(money.currency == CurrencyCode("XTS"))
        #expect(!money.currency.isKnown)
    }

    @Test
    func fractionalAmountIsADecodingError() async throws {
        let transport = MockTransport.always(
            .json(200, #"{"userId":"alice","balance":{"amountMinor":12.5,"currency":"EUR"}}"#))
        let error = try await #require(throws: ServiceError.self) { try await Self.client(transport).wallet(user: "a") }
        #expect(error.code == .decoding)
    }

    @Test(arguments: [
        (Money(amountMinor: 1250, currency: .eur), "12.50 EUR"),
        (Money(amountMinor: 5, currency: .usd), "0.05 USD"),
        (Money(amountMinor: -1205, currency: .gbp), "-12.05 GBP"),
        (Money(amountMinor: 300, currency: .jpy), "300 JPY"),
        (Money(amountMinor: 1_234_567, currency: CurrencyCode("KWD")), "1234.567 KWD"),
        (Money(amountMinor: 7, currency: CurrencyCode("XTS")), "7 minor units of XTS"),
    ])
    func moneyDescription(_ money: Money, _ text: String) {
        #expect(money.description == text)
    }

    @Test
    func currencyExponents() {
        #expect(CurrencyCode.eur.minorUnitExponent == 2)
        #expect(CurrencyCode.jpy.minorUnitExponent == 0)
        #expect(CurrencyCode("BHD").minorUnitExponent == 3)
        #expect(CurrencyCode("eur").minorUnitExponent == nil)
        #expect(CurrencyCode.minorUnitExponents.keys.allSatisfy { $0.count == 3 && $0.allSatisfy(\.isUppercase) })
    }

    @Test
    func idempotencyKeysAreFreshAndValid() throws {
        let first = PaymentClient.makeIdempotencyKey()
        let second = PaymentClient.makeIdempotencyKey()
        #expect(first != second)
        try PaymentService.refund(charge: "c", amountMinor: 1, idempotencyKey: first).validate()
    }

    // MARK: - Error envelopes

    @Test(arguments: [
        (422, "insufficient_funds", "the wallet holds 5.00 EUR"),
        (422, "idempotency_key_reused", "the key was first used with another body"),
        (404, "user_not_found", "no wallet for bob"),
    ])
    func problemsAreDecoded(_ status: Int, _ code: String, _ detail: String) async throws {
        let transport = MockTransport.always(
            .problem(
                status,
                #"{"type":"https://errors.example.com/\#(code)","title":"t","status":\#(status),"detail":"\#(detail)","code":"\#(code)"}"#
            ))
        let error = try await #require(throws: ServiceError.self) {
            try await Self.client(transport).createCharge(
                payer: "alice",
                payee: "bob",
                amount: Money(amountMinor: 1250, currency: .eur),
                idempotencyKey: "k"
            )
        }
        #expect(error.code == .unacceptableStatus)
        #expect(error.module == "PaymentModule")
        #expect(error.operation == "createCharge")
        #expect(error.response?.status == status)
        let envelope = try #require(error.envelope(as: PaymentErrorEnvelope.self))
        #expect(
            envelope
                == PaymentErrorEnvelope(
                    type: "https://errors.example.com/\(code)",
                    title: "t",
                    status: status,
                    detail: detail,
                    code: code
                )
        )
    }

    // MARK: - Input validation

    static let eur = Money(amountMinor: 100, currency: .eur)

    static let invalidCalls: [(String, @Sendable (PaymentClient) async throws -> Void)] = [
        ("user must not be empty", { _ = try await $0.wallet(user: "") }),
        ("id must not be \".\" or \"..\"", { _ = try await $0.charge(id: ".") }),
        (
            "payer must not be empty",
            { _ = try await $0.createCharge(payer: "", payee: "b", amount: eur, idempotencyKey: "k") }
        ),
        (
            "payee must not contain control characters",
            { _ = try await $0.createCharge(payer: "a", payee: "b\n", amount: eur, idempotencyKey: "k") }
        ),
        (
            "payee must differ from payer",
            { _ = try await $0.createCharge(payer: "a", payee: "a", amount: eur, idempotencyKey: "k") }
        ),
        (
            "amount.amountMinor must be positive, got 0",
            {
                _ = try await $0.createCharge(
                    payer: "a", payee: "b", amount: Money(amountMinor: 0, currency: .eur), idempotencyKey: "k")
            }
        ),
        (
            "amount.amountMinor must be positive, got -100",
            {
                _ = try await $0.createCharge(
                    payer: "a", payee: "b", amount: Money(amountMinor: -100, currency: .eur), idempotencyKey: "k")
            }
        ),
        (
            "amount.amountMinor must be at most 9007199254740991, got 9007199254740992",
            {
                _ = try await $0.createCharge(
                    payer: "a",
                    payee: "b",
                    amount: Money(amountMinor: 9_007_199_254_740_992, currency: .eur),
                    idempotencyKey: "k"
                )
            }
        ),
        (
            "amount.currency must be a known ISO 4217 code such as EUR, USD or JPY",
            {
                _ = try await $0.createCharge(
                    payer: "a", payee: "b", amount: Money(amountMinor: 1, currency: CurrencyCode("XYZ")),
                    idempotencyKey: "k")
            }
        ),
        (
            "amount.currency must be a known ISO 4217 code such as EUR, USD or JPY",
            {
                _ = try await $0.createCharge(
                    payer: "a", payee: "b", amount: Money(amountMinor: 1, currency: CurrencyCode("eur")),
                    idempotencyKey: "k")
            }
        ),
        (
            "memo must not be empty; leave it out instead",
            { _ = try await $0.createCharge(payer: "a", payee: "b", amount: eur, memo: "", idempotencyKey: "k") }
        ),
        (
            "memo must be at most 140 characters, got 141",
            {
                _ = try await $0.createCharge(
                    payer: "a", payee: "b", amount: eur, memo: String(repeating: "m", count: 141), idempotencyKey: "k")
            }
        ),
        (
            "memo must not contain control characters",
            {
                _ = try await $0.createCharge(
                    payer: "a", payee: "b", amount: eur, memo: "a\u{1B}[31m", idempotencyKey: "k")
            }
        ),
        (
            "idempotencyKey must not be empty",
            { _ = try await $0.createCharge(payer: "a", payee: "b", amount: eur, idempotencyKey: "") }
        ),
        (
            "idempotencyKey must be visible ASCII characters only (no spaces or control characters)",
            { _ = try await $0.createCharge(payer: "a", payee: "b", amount: eur, idempotencyKey: "k\r\nX-Evil: 1") }
        ),
        (
            "idempotencyKey must be visible ASCII characters only (no spaces or control characters)",
            { _ = try await $0.createCharge(payer: "a", payee: "b", amount: eur, idempotencyKey: "clé") }
        ),
        (
            "idempotencyKey must be at most 255 characters",
            {
                _ = try await $0.createCharge(
                    payer: "a", payee: "b", amount: eur, idempotencyKey: String(repeating: "k", count: 256))
            }
        ),
        ("charge must not be empty", { _ = try await $0.refund(charge: "", amountMinor: 1, idempotencyKey: "k") }),
        (
            "amountMinor must be positive, got 0",
            { _ = try await $0.refund(charge: "c", amountMinor: 0, idempotencyKey: "k") }
        ),
        (
            "amountMinor must be positive, got -1",
            { _ = try await $0.refund(charge: "c", amountMinor: -1, idempotencyKey: "k") }
        ),
        (
            "idempotencyKey must not be empty",
            { _ = try await $0.refund(charge: "c", amountMinor: 1, idempotencyKey: "") }
        ),
    ]

    @Test(arguments: invalidCalls)
    func badInputIsRefusedBeforeSending(_ message: String, _ call: @Sendable (PaymentClient) async throws -> Void)
        async throws
    {
        let transport = MockTransport.always(.json(201, Self.chargeJSON))
        let client = try Self.client(transport)
        let error = try await #require(throws: ServiceError.self) { try await call(client) }
        #expect(error.code == .invalidRequest)
        #expect(error.module == "PaymentModule")
        #expect(error.message == message)
        #expect(transport.requests.isEmpty)
    }

    @Test
    func boundaryInputsAreAccepted() throws {
        try PaymentService.createCharge(
            payer: "a",
            payee: "b",
            amount: Money(amountMinor: 9_007_199_254_740_991, currency: CurrencyCode("CLF")),
            memo: String(repeating: "é", count: 140),
            idempotencyKey: String(repeating: "~", count: 255)
        )
        .validate()
        try PaymentService.refund(charge: "c", amountMinor: 1, idempotencyKey: "!").validate()
    }
}
