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

    /// The HTTP server cannot drop a connection without answering, so an injected reset is a
    /// 503 that closes the connection (`Connection: close`, `X-Sandbox-Fault: reset`).
    @Test(arguments: TransportKind.allCases)
    func resetRateOneClosesTheConnection(_ kind: TransportKind) async throws {
        try await withSandbox(kind) { fixture in
            try fixture.sandbox.setFaults(FaultSettings(resetRate: 1), for: .user)
            let response = try await fixture.sendSigned(.get, "/v1/users/alice", to: .user)
            #expect(response.status == 503)
            #expect(response.headers["X-Sandbox-Fault"] == "reset")
            #expect(response.headers["Connection"]?.lowercased() == "close")
            #expect(problem(of: response)?.code == "unavailable")
            let failed = await expectProblem { try await fixture.users().profile(id: "alice") }
            #expect(failed?.status == 503)
            try fixture.sandbox.setFaults(.none, for: .user)
            _ = try await fixture.users().profile(id: "alice")
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
