import Foundation
import HTTPTypes
import SandboxUpstreams
import ServiceCore
import Testing

@testable import SwiftyDaemon

/// `POST /v1/payments` whose answer is lost: the client is told the outcome is unknown and to
/// retry with the same `Idempotency-Key`, and that retry returns the one charge made.
@Suite(.timeLimit(.minutes(2)))
struct PaymentOutcomeTests {
    static let body = #"{"payee": "bob", "amountMinor": 1250, "currency": "EUR"}"#
    /// Alice's seeded balance, in cents.
    static let seededBalance = 100_000

    static func pay(_ app: AppClient, key: String) async throws -> AppClient.Answer {
        try await app.send(.post, "/v1/payments", headers: ["Idempotency-Key": key], json: body)
    }

    static func balance(_ app: AppClient) async throws -> Int? {
        let wallet = try await app.get("/v1/wallet").json
        return (wallet?["balance"] as? [String: Any])?["amountMinor"] as? Int
    }

    static func expectUnknownOutcome(_ answer: AppClient.Answer, key: String) {
        #expect(answer.status == 502, "\(answer.text)")
        #expect(answer.json?["code"] as? String == "payment_outcome_unknown", "\(answer.text)")
        #expect(answer.json?["module"] as? String == "PaymentModule")
        #expect(answer.headers["Retry-After"] == "1")
        let detail = answer.json?["detail"] as? String ?? ""
        #expect(detail.contains("same Idempotency-Key") && detail.contains(key))
    }

    @Test func aChargeWhoseAnswerIsLostIsReportedUnknownAndTheRetryReturnsIt() async throws {
        let daemon = try await UpstreamFailureTests.start()
        let sandbox = try #require(daemon.sandbox)
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        let start = Self.seededBalance
        // The charge is the daemon's first payment call: on a fresh connection, which the
        // transport does not resend on its own.
        try sandbox.upstreams.setFaults(FaultSettings(resetAfterProcessingRate: 1), for: .payment)
        let key = UUID().uuidString
        Self.expectUnknownOutcome(try await Self.pay(app, key: key), key: key)
        try sandbox.upstreams.setFaults(.none, for: .payment)
        // The charge went through although its answer was lost.
        #expect(try await Self.balance(app) == start - 1250)
        let retried = try await Self.pay(app, key: key)
        #expect(retried.status == 201)
        #expect(retried.headers["Idempotent-Replayed"] == "true")
        let id = try #require(retried.json?["id"] as? String)
        #expect(try await app.get("/v1/payments/\(id)").status == 200)
        #expect(try await Self.balance(app) == start - 1250, "charged once")
        // A new key is a new charge, not marked replayed.
        let fresh = try await Self.pay(app, key: UUID().uuidString)
        #expect(fresh.status == 201)
        #expect(fresh.headers["Idempotent-Replayed"] == nil)
        await daemon.drain()
    }

    @Test func aChargeResetBeforeProcessingIsAlsoUnknownAndTheRetryMakesIt() async throws {
        let daemon = try await UpstreamFailureTests.start()
        let sandbox = try #require(daemon.sandbox)
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        let start = Self.seededBalance
        try sandbox.upstreams.setFaults(FaultSettings(resetRate: 1), for: .payment)
        let key = UUID().uuidString
        Self.expectUnknownOutcome(try await Self.pay(app, key: key), key: key)
        try sandbox.upstreams.setFaults(.none, for: .payment)
        #expect(try await Self.balance(app) == start)
        let retried = try await Self.pay(app, key: key)
        #expect(retried.status == 201)
        #expect(retried.headers["Idempotent-Replayed"] == nil)
        #expect(try await Self.balance(app) == start - 1250)
        await daemon.drain()
    }

    /// Under 10 % reset connections (half before, half after processing), an app client that
    /// retries an unknown outcome with the same key gets every payment made exactly once.
    @Test func retryingUnknownOutcomesWithTheSameKeyChargesEachPaymentOnce() async throws {
        var configuration = UpstreamFailureTests.sandboxConfiguration()
        // One user makes all the payments, faster than a person would.
        configuration.rateLimits.payments = .none
        // The daemon does not retry here, so that the client meets the unknown outcomes itself.
        var payment = DaemonConfiguration.ModuleSettings()
        payment.retryAttempts = 1
        configuration.modules["PaymentModule"] = payment
        let daemon = try await UpstreamFailureTests.start(configuration)
        let sandbox = try #require(daemon.sandbox)
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        #expect(try await Self.balance(app) == Self.seededBalance)
        try sandbox.upstreams.setFaults(FaultSettings(resetRate: 0.05, resetAfterProcessingRate: 0.05), for: .payment)
        let payments = 200
        let small = #"{"payee": "bob", "amountMinor": 10, "currency": "EUR"}"#
        var charges: Set<String> = []
        var unknown = 0
        for batch in 0..<(payments / 8) {
            let results = try await withThrowingTaskGroup(of: (String?, Int).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let key = UUID().uuidString
                        var unknownSeen = 0
                        for _ in 0..<8 {
                            let answer = try await app.send(
                                .post, "/v1/payments", headers: ["Idempotency-Key": key], json: small)
                            if answer.status == 201 { return (answer.json?["id"] as? String, unknownSeen) }
                            guard answer.json?["code"] as? String == UnknownOutcome.code else {
                                Issue.record("unexpected answer \(answer.status): \(answer.text)")
                                return (nil, unknownSeen)
                            }
                            unknownSeen += 1
                        }
                        return (nil, unknownSeen)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.0 != nil }, "batch \(batch)")
            charges.formUnion(results.compactMap(\.0))
            unknown += results.map(\.1).reduce(0, +)
        }
        try sandbox.upstreams.setFaults(.none, for: .payment)
        #expect(charges.count == payments)
        #expect(unknown > 0, "the faults were injected")
        #expect(try await Self.balance(app) == Self.seededBalance - 10 * payments, "each payment charged once")
        await daemon.drain()
    }

    @Test func onlyFailuresAfterSendingAreUnknown() {
        func failure(
            _ code: ServiceError.Code, status: Int? = nil, transport: TransportError.Code? = nil, attempts: Int = 1
        )
            -> ServiceError
        {
            ServiceError(
                code: code, module: "PaymentModule", operation: "createCharge", message: "test",
                response: status.map { .init(HTTPResponse(status: $0), limit: 0) }, attempts: attempts,
                underlying: transport.map { TransportError($0, "test") })
        }
        #expect(UnknownOutcome.isUnknown(failure(.timeout)))
        #expect(UnknownOutcome.isUnknown(failure(.decoding)))
        #expect(UnknownOutcome.isUnknown(failure(.deadlineExceeded)))
        #expect(!UnknownOutcome.isUnknown(failure(.deadlineExceeded, attempts: 0)))
        #expect(UnknownOutcome.isUnknown(failure(.transport, transport: .connectionClosed)))
        #expect(!UnknownOutcome.isUnknown(failure(.transport, transport: .connectionFailed)))
        #expect(UnknownOutcome.isUnknown(failure(.unacceptableStatus, status: 500)))
        #expect(UnknownOutcome.isUnknown(failure(.unacceptableStatus, status: 502)))
        // A 503 refuses the request before carrying it out (the upstream contract).
        #expect(!UnknownOutcome.isUnknown(failure(.unacceptableStatus, status: 503)))
        #expect(!UnknownOutcome.isUnknown(failure(.unacceptableStatus, status: 422)))
        var replayed = failure(.unacceptableStatus, status: 401)
        replayed.envelope = ProblemDetails(status: 401, detail: "replayed", code: "signature_replayed")
        #expect(UnknownOutcome.isUnknown(replayed))
        replayed.envelope = ProblemDetails(status: 401, detail: "invalid", code: "signature_invalid")
        #expect(!UnknownOutcome.isUnknown(replayed))
        #expect(!UnknownOutcome.isUnknown(failure(.circuitOpen)))
        #expect(!UnknownOutcome.isUnknown(failure(.credentialRefreshFailed)))
        #expect(!UnknownOutcome.isUnknown(CancellationError()))
        #expect(UnknownOutcome.problem(for: failure(.timeout), idempotencyKey: "k").problem.status == 504)
    }
}
