import Foundation
import HTTPTypes
import ServiceCore
import Testing

@testable import SandboxUpstreams

/// `--no-verify` (benchmarks only): off by default, so every request's signature is checked;
/// with the flag, unsigned requests are answered.
@Suite(.timeLimit(.minutes(1)))
struct NoVerifyTests {
    @Test func verificationIsOnUnlessTheFlagIsGiven() throws {
        #expect(try SandboxArguments.parse(["--keys", "/k"]).verifiesSignatures)
        #expect(SandboxUpstreams.Configuration().verifiesSignatures)
        #expect(try SandboxArguments.parse(["--keys", "/k", "--no-verify"]).verifiesSignatures == false)
        #expect(throws: SandboxUsageError.self) { try SandboxArguments.parse(["--keys", "/k", "--no-verify=yes"]) }
        #expect(SandboxArguments.helpText.contains("--no-verify"))
        #expect(SandboxArguments.helpText.contains("BENCHMARKS ONLY"))
    }

    /// An unsigned `GET /v1/users/alice` on each upstream configuration: 401 by default, 200
    /// with verification off.
    @Test(arguments: [true, false])
    func unsignedRequestIsAnsweredOnlyWithoutVerification(_ verifies: Bool) async throws {
        var configuration = SandboxFixture.quietConfiguration()
        configuration.verifiesSignatures = verifies
        try await withSandbox(configuration: configuration) { fixture in
            let response = try await fixture.transport.send(
                HTTPRequest(
                    method: .get, url: fixture.sandbox.baseURL(for: .user).appendingPathComponent("v1/users/alice"),
                    timeout: .seconds(10)))
            if verifies {
                #expect(response.status == 401)
                #expect(problem(of: response)?.code == "signature_missing")
            } else {
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self).contains("Alice Liddell"))
            }
        }
    }
}
