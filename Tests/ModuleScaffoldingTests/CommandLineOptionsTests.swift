import ModuleScaffolding
import Testing

/// Parsing the command line.
struct CommandLineOptionsTests {
    @Test
    func fullCommandLine() throws {
        let request = try CommandLineOptions.parse([
            "Inventory", "--base-url", "https://inventory.example.com", "--key-id", "inventory-7",
            "--staging-base-url=https://inventory.staging.example.com", "--repo", "/tmp/repo", "--dry-run",
        ])
        #expect(
            request
                == .create(
                    CommandLineOptions(
                        name: "Inventory",
                        baseURL: "https://inventory.example.com",
                        stagingBaseURL: "https://inventory.staging.example.com",
                        keyID: "inventory-7",
                        repository: "/tmp/repo",
                        dryRun: true
                    )
                )
        )
    }

    @Test
    func optionsMayComeFirst() throws {
        let request = try CommandLineOptions.parse(["--base-url=https://i.example.com", "Inventory"])
        #expect(request == .create(CommandLineOptions(name: "Inventory", baseURL: "https://i.example.com")))
    }

    @Test(arguments: [["--help"], ["-h"], ["Inventory", "--help"], ["--bogus", "-h"]])
    func help(_ arguments: [String]) throws {
        #expect(try CommandLineOptions.parse(arguments) == .help)
        #expect(CommandLineOptions.usage.contains("USAGE: new-module <name> --base-url <url>"))
    }

    @Test(arguments: [
        ([], "missing the module name"),
        (["--base-url", "https://i.example.com"], "missing the module name"),
        (["Inventory"], "missing --base-url"),
        (["Inventory", "--base-url"], "--base-url needs a value"),
        (["Inventory", "Other", "--base-url", "https://i.example.com"], "one module name expected"),
        (["Inventory", "--base-url", "https://a.example.com", "--base-url", "https://b.example.com"], "given twice"),
        (["Inventory", "--base-url", "https://a.example.com", "--bogus"], "unknown option --bogus"),
        (["Inventory", "--base-url", "https://a.example.com", "--dry-run=yes"], "unknown option --dry-run"),
    ])
    func usageErrors(_ arguments: [String], _ reason: String) throws {
        let error = try #require(throws: ScaffoldingError.self) { try CommandLineOptions.parse(arguments) }
        #expect(error.code == .usage)
        #expect(error.exitCode == 64)
        #expect(error.message.contains(reason))
    }
}
