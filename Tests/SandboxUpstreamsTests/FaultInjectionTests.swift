import FeedModule
import Foundation
import HTTPTypes
import PaymentModule
import SandboxUpstreams
import ServiceCore
import ServiceTesting
import Testing
import UserModule

/// Injected latency, errors and resets, set at start and at run time.
@Suite(.timeLimit(.minutes(1)))
struct FaultInjectionTests {
    @Test(arguments: TransportKind.allCases)
    func latencyIsAdded(_ kind: TransportKind) async throws {
        var configuration = SandboxFixture.quietConfiguration()
        configuration.faults[.user] = FaultSettings(latency: .milliseconds(150))
        try await withSandbox(kind, configuration: configuration) { fixture in
            let users = try fixture.users()
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await users.profile(id: "alice")
            #expect(clock.now - start >= .milliseconds(150))
            // Set at run time on another upstream.
            try fixture.sandbox.setFaults(FaultSettings(latency: .milliseconds(120)), for: .payment)
            #expect(fixture.sandbox.faults(for: .payment).latency == .milliseconds(120))
            let payments = try fixture.payments()
            let paymentStart = clock.now
            _ = try await payments.wallet(user: "bob")
            #expect(clock.now - paymentStart >= .milliseconds(120))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func errorRateOneAnswers503(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let feed = try fixture.feed()
            _ = try await feed.post(id: "p000001")
            try fixture.sandbox.setFaults(FaultSettings(errorRate: 1), for: .feed)
            for _ in 0..<3 {
                let failed = await expectProblem { try await feed.post(id: "p000001") }
                #expect(failed?.status == 503)
                #expect(failed?.problem.code == "unavailable")
                #expect(failed?.headers["X-Sandbox-Fault"] == "error")
            }
            // Other upstreams are untouched; clearing the faults restores the service.
            _ = try await fixture.users().profile(id: "bob")
            try fixture.sandbox.setFaults(.none, for: .feed)
            _ = try await feed.post(id: "p000001")
        }
    }

    @Test func faultsDoNotPrecedeTheSignatureCheck() async throws {
        try await withSandbox { fixture in
            try fixture.sandbox.setFaults(FaultSettings(errorRate: 1, resetRate: 1))
            let users = try fixture.users([])
            let refused = await expectProblem { try await users.profile(id: "alice") }
            #expect(refused?.status == 401)
        }
    }

    private static func eur(_ minor: Int64) -> Money { Money(amountMinor: minor, currency: .eur) }

    /// The failure of a call whose connection was reset: a transport error, no answer.
    private static func expectReset(
        _ operation: () async throws -> some Any, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            _ = try await operation()
            Issue.record("expected the connection to be reset, but the call succeeded", sourceLocation: sourceLocation)
        } catch let error as ServiceError {
            #expect(error.code == .transport, "got \(error)", sourceLocation: sourceLocation)
            #expect(error.response == nil, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a ServiceError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    /// A reset before processing: no answer, nothing charged; a retry with the same key charges once.
    @Test(arguments: TransportKind.allCases)
    func resetRateOneResetsBeforeProcessing(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let payments = try fixture.payments()
            try fixture.sandbox.setFaults(FaultSettings(resetRate: 1), for: .payment)
            let key = PaymentClient.makeIdempotencyKey()
            await Self.expectReset {
                try await payments.createCharge(
                    payer: "alice", payee: "bob", amount: Self.eur(700), idempotencyKey: key)
            }
            await Self.expectReset { try await payments.wallet(user: "alice") }
            try fixture.sandbox.setFaults(.none, for: .payment)
            #expect(try await payments.wallet(user: "alice").balance == Self.eur(100_000))
            let recording = RecordingTransport(wrapping: fixture.transport)
            let charge = try await fixture.payments(transport: recording).createCharge(
                payer: "alice", payee: "bob", amount: Self.eur(700), idempotencyKey: key)
            #expect(charge.amount == Self.eur(700))
            #expect(recording.responses.first?.headers["Idempotent-Replayed"] == nil)
            #expect(try await payments.wallet(user: "alice").balance == Self.eur(100_000 - 700))
        }
    }

    /// A reset after processing: the charge is stored but its answer lost; a retry with the same
    /// key gets the stored charge, marked replayed, and nothing is charged twice.
    @Test(arguments: TransportKind.allCases)
    func resetAfterProcessingStoresTheChargeAndLosesTheAnswer(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            let payments = try fixture.payments()
            try fixture.sandbox.setFaults(FaultSettings(resetAfterProcessingRate: 1), for: .payment)
            let key = PaymentClient.makeIdempotencyKey()
            await Self.expectReset {
                try await payments.createCharge(
                    payer: "alice", payee: "carol", amount: Self.eur(900), idempotencyKey: key)
            }
            try fixture.sandbox.setFaults(.none, for: .payment)
            #expect(try await payments.wallet(user: "alice").balance == Self.eur(100_000 - 900))
            let recording = RecordingTransport(wrapping: fixture.transport)
            let charge = try await fixture.payments(transport: recording).createCharge(
                payer: "alice", payee: "carol", amount: Self.eur(900), idempotencyKey: key)
            #expect(charge.payeeId == "carol" && charge.amount == Self.eur(900))
            #expect(recording.responses.first?.headers["Idempotent-Replayed"] == "true")
            #expect(try await payments.wallet(user: "alice").balance == Self.eur(100_000 - 900))
            #expect(try await payments.wallet(user: "carol").balance == Self.eur(25_000 + 900))
        }
    }

    @Test func faultsFollowTheSeed() async throws {
        func outcomes(seed: UInt64) async throws -> [Int] {
            var configuration = SandboxFixture.quietConfiguration()
            configuration.faultSeed = seed
            configuration.faults[.user] = FaultSettings(errorRate: 0.5)
            return try await withSandbox(configuration: configuration) { fixture in
                var statuses: [Int] = []
                for _ in 0..<24 {
                    statuses.append(try await fixture.sendSigned(.get, "/v1/users/carol", to: .user).status)
                }
                return statuses
            }
        }
        let first = try await outcomes(seed: 42)
        let second = try await outcomes(seed: 42)
        #expect(first == second)
        #expect(first.contains(200) && first.contains(503))
        #expect(Set(first).isSubset(of: [200, 503]))
        let other = try await outcomes(seed: 7)
        #expect(other != first)
    }

    @Test func outOfRangeSettingsAreRefused() async throws {
        try await withSandbox { fixture in
            for settings in [
                FaultSettings(errorRate: 1.5), FaultSettings(resetRate: -0.1), FaultSettings(latency: .seconds(31)),
                FaultSettings(resetAfterProcessingRate: 1.01),
            ] {
                #expect(throws: SandboxError.self) { try fixture.sandbox.setFaults(settings, for: .user) }
            }
            #expect(fixture.sandbox.faults(for: .user) == .none)
        }
        var configuration = SandboxFixture.quietConfiguration()
        configuration.faults[.feed] = FaultSettings(errorRate: 2)
        await #expect(throws: SandboxError.self) {
            _ = try await SandboxUpstreams.start(keys: SandboxKeys.generate(), configuration: configuration)
        }
    }
}
