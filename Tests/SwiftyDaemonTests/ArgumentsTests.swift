import Testing

@testable import SwiftyDaemon

struct ArgumentsTests {
    @Test func parsesEveryFlag() throws {
        let arguments = try DaemonArguments(
            parsing: ["--config", "c.json", "--host", "::1", "--port=0", "--admin-port", "9", "--check-config"]
        )
        #expect(arguments.configFile == "c.json")
        #expect(arguments.host == "::1")
        #expect(arguments.port == 0)
        #expect(arguments.adminPort == 9)
        #expect(arguments.checkConfig)
    }

    @Test(arguments: [
        ["--port"], ["--port", "http"], ["--port", "65536"], ["--admin-port", "-1"], ["--frobnicate"], ["extra"],
        ["--config"], ["--config", "--port"],
    ])
    func usageErrors(arguments: [String]) {
        #expect(throws: DaemonArguments.UsageError.self) { try DaemonArguments(parsing: arguments) }
    }

    @Test func usageExitsWith64AndHelpWith0() async {
        #expect(await DaemonCommand.run(arguments: ["--nope"], environment: [:]) == 64)
        #expect(await DaemonCommand.run(arguments: ["--help"], environment: [:]) == 0)
        #expect(await DaemonCommand.run(arguments: ["--check-config"], environment: [:]) == 0)
        #expect(await DaemonCommand.run(arguments: ["--check-config"], environment: ["SWIFTY_MODE": "live"]) == 78)
    }
}
