import Foundation
import HTTPTypes
import ServiceCore
import Testing

@testable import SandboxUpstreams

/// `--replay-capacity`: how many signature nonces each upstream remembers; beyond it, new
/// signatures are refused with 503 (never an old nonce forgotten early).
struct ReplayCapacityTests {
    @Test func theFlagIsParsedAndChecked() throws {
        #expect(try SandboxArguments.parse(["--keys", "/k"]).replayCapacity == nil)
        #expect(SandboxUpstreams.Configuration().replayCapacity == 100_000)
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
