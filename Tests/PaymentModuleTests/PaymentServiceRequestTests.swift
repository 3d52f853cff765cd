import Foundation
import PaymentModule
import ServiceCore
import ServiceTesting
import Testing

/// The exact request of every case: method, URL, header fields in order, body bytes.
///
/// JSON bodies are compared byte for byte: the module encodes them with sorted keys.
struct PaymentServiceRequestTests {
    static let base = "https://payments.api.example.com"
    /// An id with every character that could change a URL's shape, and non-ASCII text.
    static let hostile = "a/b?c#d é"
    static let hostileEncoded = "a%2Fb%3Fc%23d%20%C3%A9"
    static let accept = ("Accept", "application/json")
    static let json = ("Content-Type", "application/json")
    static let eur1250 = Money(amountMinor: 1250, currency: .eur)

    static let cases: [(PaymentService, ExpectedRequest)] = [
        (
            .wallet(user: hostile),
            ExpectedRequest(method: .get, url: "\(base)/v1/wallets/\(hostileEncoded)", headers: [accept])
        ),
        (
            .charge(id: "ch_1"),
            ExpectedRequest(method: .get, url: "\(base)/v1/charges/ch_1", headers: [accept])
        ),
        (
            .charge(id: hostile),
            ExpectedRequest(method: .get, url: "\(base)/v1/charges/\(hostileEncoded)", headers: [accept])
        ),
        (
            .createCharge(payer: "alice", payee: "bob", amount: eur1250, memo: "lunch \"é\"", idempotencyKey: "k-1"),
            ExpectedRequest(
                method: .post,
                url: "\(base)/v1/charges",
                headers: [accept, json, ("Idempotency-Key", "k-1")],
                body:
                    #"{"amount":{"amountMinor":1250,"currency":"EUR"},"memo":"lunch \"é\"","payeeId":"bob","payerId":"alice"}"#
            )
        ),
        (
            .createCharge(
                payer: hostile,
                payee: "bob",
                amount: Money(amountMinor: 9_007_199_254_740_991, currency: .jpy),
                memo: nil,
                idempotencyKey: "8e03978e-40d5-43e8-bc93-6894a57f9324"
            ),
            ExpectedRequest(
                method: .post,
                url: "\(base)/v1/charges",
                headers: [accept, json, ("Idempotency-Key", "8e03978e-40d5-43e8-bc93-6894a57f9324")],
                body:
                    #"{"amount":{"amountMinor":9007199254740991,"currency":"JPY"},"payeeId":"bob","payerId":"a/b?c#d é"}"#
            )
        ),
        (
            .refund(charge: hostile, amountMinor: 500, idempotencyKey: "r-1"),
            ExpectedRequest(
                method: .post,
                url: "\(base)/v1/charges/\(hostileEncoded)/refunds",
                headers: [accept, json, ("Idempotency-Key", "r-1")],
                body: #"{"amountMinor":500}"#
            )
        ),
    ]

    @Test(arguments: cases)
    func exactRequest(_ service: PaymentService, _ expected: ExpectedRequest) throws {
        let client = try ServiceClient<PaymentService>(baseURL: Self.base, transport: MockTransport())
        expected.check(try client.makeRequest(service))
    }

    @Test(arguments: [
        (PaymentService.wallet(user: "a"), RequestPolicy.RetryClass.idempotent, "wallet"),
        (.charge(id: "c"), .idempotent, "charge"),
        (
            .createCharge(payer: "a", payee: "b", amount: eur1250, memo: nil, idempotencyKey: "k"),
            .requiresIdempotencyKey, "createCharge"
        ),
        (.refund(charge: "c", amountMinor: 1, idempotencyKey: "k"), .requiresIdempotencyKey, "refund"),
    ])
    func policyAndOperationName(_ service: PaymentService, _ retry: RequestPolicy.RetryClass, _ name: String) {
        #expect(service.policy.retry == retry)
        #expect(service.policy.timeout == .seconds(10))
        #expect(service.operationName == name)
        // The spelled-out name is the one the protocol's default would find by reflection.
        #expect(Mirror(reflecting: service).children.first?.label == name)
    }

    @Test
    func idempotencyKeyIsTheSameOnEveryBuild() throws {
        let client = try ServiceClient<PaymentService>(baseURL: Self.base, transport: MockTransport())
        let service = PaymentService.refund(charge: "c", amountMinor: 1, idempotencyKey: "same")
        let first = try client.makeRequest(service)
        let second = try client.makeRequest(service)
        #expect(first.headers.values(for: "idempotency-key") == ["same"])
        #expect(first.headers == second.headers)
        #expect(first.body == second.body)
    }
}
