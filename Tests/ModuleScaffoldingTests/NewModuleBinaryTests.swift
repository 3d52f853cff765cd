import Foundation
import Testing

/// The built `new-module` binary: the thin CLI passes arguments, output and exit status through.
struct NewModuleBinaryTests {
    @Test
    func helpAndRefusal() async throws {
        let binary = try #require(ProcessRunner.newModuleBinary(), "the new-module binary is built beside the tests")
        let root = try Repository.makeMinimal()
        defer { try? FileManager.default.removeItem(at: root) }

        let help = try await ProcessRunner.run(binary, ["--help"], in: root, limit: .seconds(60))
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: new-module <name> --base-url <url>"))

        let before = try Repository.contents(of: root)
        let refused = try await ProcessRunner.run(
            binary, ["lower", "--base-url", "https://x.example.com"], in: root, limit: .seconds(60))
        #expect(refused.status == 64)
        #expect(refused.output.contains("new-module: \"lower\" is not an UpperCamelCase Swift identifier"))
        #expect(try Repository.contents(of: root) == before)

        let created = try await ProcessRunner.run(
            binary, ["Inventory", "--base-url", "https://x.example.com"], in: root, limit: .seconds(60))
        #expect(created.status == 0, "\(created.output)")
        #expect(
            FileManager.default.fileExists(
                atPath: root.appendingPathComponent("Modules/InventoryModule/InventoryClient.swift").path))
    }
}
