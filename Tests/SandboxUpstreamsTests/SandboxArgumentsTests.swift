import Testing

@testable import SandboxUpstreams

/// The command line of `sandbox-upstreams`.
struct SandboxArgumentsTests {
    @Test func parsesEveryOption() throws {
        let parsed = try SandboxArguments.parse([
            "--keys", "/k", "--host=127.0.0.2", "--user-port", "1", "--feed-port=2", "--payment-port", "3",
            "--generate-keys", "--latency-ms", "50", "--error-rate", "0.25", "--reset-rate=0.5", "--fault-seed", "9",
            "--threads", "3", "--reset-after-processing-rate", "0.125",
        ])
        #expect(parsed.keysDirectory == "/k")
        #expect(parsed.host == "127.0.0.2")
        #expect([parsed.userPort, parsed.feedPort, parsed.paymentPort] == [1, 2, 3])
        #expect(parsed.generateKeys)
        #expect(
            parsed.faults
                == FaultSettings(
                    latency: .milliseconds(50), errorRate: 0.25, resetRate: 0.5, resetAfterProcessingRate: 0.125))
        #expect(parsed.faultSeed == 9)
        #expect(parsed.threadCount == 3)
        #expect(try SandboxArguments.parse(["--keys", "/k"]).threadCount == nil)
        #expect(try SandboxArguments.parse(["--help"]).showsHelp)
        #expect(throws: SandboxUsageError.self) { try SandboxArguments.parse(["-h", "--bogus"]) }
    }

    @Test(arguments: [
        [String](), ["--keys"], ["--keys", ""], ["--keys", "/k", "--user-port", "70000"],
        ["--keys", "/k", "--error-rate", "2"], ["--keys", "/k", "--latency-ms", "-1"], ["--keys", "/k", "extra"],
        ["--keys", "/k", "--nope"], ["--keys", "/k", "--generate-keys=yes"], ["--keys", "/k", "--fault-seed", "x"],
        ["--keys", "/k", "--threads", "0"], ["--keys", "/k", "--threads", "65"], ["--keys", "/k", "--threads=two"],
    ])
    func refusesBadCommandLines(_ arguments: [String]) {
        #expect(throws: SandboxUsageError.self) { try SandboxArguments.parse(arguments) }
    }
}
