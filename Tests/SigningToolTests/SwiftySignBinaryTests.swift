import Foundation
import ServiceTesting
import Testing

/// Runs the built `swifty-sign` executable, which sits beside the test bundle.
struct SwiftySignBinaryTests {
    private static var binary: URL? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let candidate = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(
            "swifty-sign")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// Runs the binary with input, waiting at most ten seconds.
    private func run(_ arguments: [String], input: [UInt8]) async throws -> (
        status: Int32, output: String, error: String
    ) {
        let binary = try #require(Self.binary, "swifty-sign was not built beside the tests")
        let child = try ChildProcess(binary.path, arguments: arguments, input: .bytes(input))
        let termination = await child.waitForExitOrKill(timeout: .seconds(10))
        if termination == nil { Issue.record("swifty-sign did not finish within 10 s") }
        return (termination?.status ?? -1, child.standardOutput, child.standardError)
    }

    @Test func signPipedIntoVerify() async throws {
        let fixtures = try ToolFixtures()
        let signed = try await run(
            ["sign", "--key-file", fixtures.keyFile, "--key-id", "pay-1", "--tag", "PaymentModule"],
            input: ToolFixtures.post)
        #expect(signed.status == 0, "\(signed.error)")
        #expect(signed.output.contains("Signature-Input: sig1=("))
        let verified = try await run(
            ["verify", "--key-file", fixtures.keyFile, "--key-id", "pay-1", "--tag", "PaymentModule"],
            input: Array(signed.output.utf8))
        #expect(verified.status == 0, "\(verified.output) \(verified.error)")
        #expect(verified.output.hasPrefix("valid"))

        let tampered = signed.output.replacingOccurrences(of: "dry-run=1", with: "dry-run=0")
        let rejected = try await run(
            ["verify", "--key-file", fixtures.keyFile, "--key-id", "pay-1", "--tag", "PaymentModule"],
            input: Array(tampered.utf8))
        #expect(rejected.status == 1)
        #expect(rejected.output.hasPrefix("invalid: invalid signature"))
    }

    @Test func usageAndHelp() async throws {
        let usage = try await run([], input: [])
        #expect(usage.status == 64)
        #expect(usage.error.contains("error:"))
        let help = try await run(["sign", "--help"], input: [])
        #expect(help.status == 0)
        #expect(help.output.contains("--key-file"))
    }
}
