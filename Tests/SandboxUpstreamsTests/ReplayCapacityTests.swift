import Foundation
import HTTPTypes
import RequestSigning
import ServiceCore
import Testing

@testable import SandboxUpstreams

/// `--replay-rate` and `--replay-capacity`: how many signature nonces each upstream remembers;
/// beyond it, new signatures are refused with 503 (never an old nonce forgotten early).
struct ReplayCapacityTests {
    @Test func theRateSizesTheGuard() throws {
        #expect(try SandboxArguments.parse(["--keys", "/k"]).replayRate == nil)
        #expect(try SandboxArguments.parse(["--keys", "/k", "--replay-rate", "2000"]).replayRate == 2000)
        for bad in ["0", "-1", "x", "1000001", "1.5", ""] {
            #expect(throws: SandboxUsageError.self) {
                try SandboxArguments.parse(["--keys", "/k", "--replay-rate", bad])
            }
        }
        #expect(SandboxArguments.helpText.contains("--replay-rate"))
        // The window is the verifier's, as short as its clock skew allows (maximum age 2 x skew).
        let verifier = SignatureGate.verifierConfiguration
        #expect(verifier.maximumAge == verifier.allowedClockSkew * 2)
        #expect(SandboxUpstreams.Configuration.replayWindow == verifier.replayWindow)
        var configuration = SandboxUpstreams.Configuration()
        #expect(configuration.replayCapacity == nil)
        let byDefault = configuration.effectiveReplayCapacity
        configuration.replayRequestsPerSecond *= 2
        #expect(configuration.effectiveReplayCapacity >= 2 * byDefault - 1)
        configuration.replayCapacity = 7
        #expect(configuration.effectiveReplayCapacity == 7)
        configuration.replayRequestsPerSecond = 0
        #expect(throws: SandboxError.self) { try configuration.validate() }
    }

    /// The default lets one upstream hold what it can take over a whole window: the 3-minute
    /// loads of docs/benchmarks.md ran at about 1 500 signed requests/s per upstream.
    @Test func theDefaultHoldsAWindowOfHeavyLoad() {
        let configuration = SandboxUpstreams.Configuration()
        let seconds = Double(SandboxUpstreams.Configuration.replayWindow.components.seconds)
        #expect(Double(configuration.effectiveReplayCapacity) >= 1_500 * seconds * 2)
    }

    @Test func theFlagIsParsedAndChecked() throws {
        #expect(try SandboxArguments.parse(["--keys", "/k"]).replayCapacity == nil)
        #expect(try SandboxArguments.parse(["--keys", "/k", "--replay-capacity", "400000"]).replayCapacity == 400_000)
        for bad in ["0", "-1", "x", "100000001", ""] {
            #expect(throws: SandboxUsageError.self) {
                try SandboxArguments.parse(["--keys", "/k", "--replay-capacity", bad])
            }
        }
        #expect(throws: SandboxUsageError.self) { try SandboxArguments.parse(["--keys", "/k", "--replay-capacity"]) }
        #expect(SandboxArguments.helpText.contains("--replay-capacity"))
    }

    @Test func signaturesBeyondTheCapacityAreRefusedWith503() async throws {
        var configuration = SandboxFixture.quietConfiguration()
        configuration.replayCapacity = 2
        try await withSandbox(configuration: configuration) { fixture in
            var statuses: [Int] = []
            for _ in 0..<3 {
                statuses.append(try await fixture.sendSigned(.get, "/v1/users/alice", to: .user).status)
            }
            #expect(statuses == [200, 200, 503])
            // The other upstreams keep their own nonces.
            #expect(try await fixture.sendSigned(.get, "/v1/wallets/alice", to: .payment).status == 200)
        }
    }
}
