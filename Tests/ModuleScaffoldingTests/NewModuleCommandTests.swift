import Foundation
import ModuleScaffolding
import Testing

/// The command as a function, against a minimal repository in a temporary directory.
struct NewModuleCommandTests {
    @Test
    func createsTheModuleAndEditsBothFiles() throws {
        let root = try Repository.makeMinimal()
        defer { try? FileManager.default.removeItem(at: root) }
        let outcome = NewModuleCommand.run(
            ["Inventory", "--base-url", "https://inventory.example.com", "--repo", root.path],
            currentDirectory: "/"
        )
        #expect(outcome.exitCode == 0)
        #expect(outcome.errorOutput.isEmpty)
        #expect(outcome.output.contains("created Modules/InventoryModule/InventoryService.swift"))
        #expect(outcome.output.contains("swift test --filter InventoryModuleTests"))

        let contents = try Repository.contents(of: root)
        let spec = try ModuleSpec(name: "Inventory", baseURL: "https://inventory.example.com")
        for file in ModuleTemplate.files(for: spec) {
            #expect(contents[file.path] == Data(file.contents.utf8), "\(file.path)")
        }
        let manifest = String(decoding: try #require(contents["Package.swift"]), as: UTF8.self)
        #expect(
            try ManifestEditor.featureModules(in: manifest) == [
                "FeedModule", "InventoryModule", "PaymentModule", "UserModule",
            ])
        let registry = String(decoding: try #require(contents[RegistryEditor.path]), as: UTF8.self)
        #expect(registry.contains("import InventoryModule\n"))
        #expect(registry.contains("        InventoryModuleIdentity.self,\n"))
        #expect(registry.contains("        InventoryRoutes.self,\n"))
        #expect(outcome.output.contains("created Apps/SwiftyDaemon/Routes/InventoryRoutes.swift"))
        #expect(outcome.output.contains("http://127.0.0.1:8080/v1/inventory/items/i1"))
    }

    @Test
    func relativeRepositoryPathsStartAtTheCurrentDirectory() throws {
        let root = try Repository.makeMinimal()
        defer { try? FileManager.default.removeItem(at: root) }
        let outcome = NewModuleCommand.run(
            ["Inventory", "--base-url", "https://inventory.example.com", "--repo", root.lastPathComponent],
            currentDirectory: root.deletingLastPathComponent().path
        )
        #expect(outcome.exitCode == 0, "\(outcome.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Modules/InventoryModule").path))
    }

    @Test(arguments: [
        (["inventory", "--base-url", "https://i.example.com"], 64, "not an UpperCamelCase Swift identifier"),
        (["Feed", "--base-url", "https://i.example.com"], 64, "FeedModule"),
        (["Service", "--base-url", "https://i.example.com"], 64, "ServiceClient"),
        (["Inventory", "--base-url", "i.example.com"], 64, "is not absolute http or https"),
        (["Inventory", "--base-url", "https://i.example.com", "--key-id", "bad key"], 64, "--key-id"),
        (["Inventory"], 64, "missing --base-url"),
        (
            ["Inventory", "--base-url", "https://i.example.com", "--repo", "/nonexistent-swifty-repo"], 66,
            "cannot read"
        ),
    ])
    func refusalsChangeNothing(_ arguments: [String], _ exitCode: Int32, _ reason: String) throws {
        let root = try Repository.makeMinimal()
        defer { try? FileManager.default.removeItem(at: root) }
        let before = try Repository.contents(of: root)
        let directories = Repository.directories(of: root)
        let outcome = NewModuleCommand.run(arguments, currentDirectory: root.path)
        #expect(outcome.exitCode == exitCode)
        #expect(outcome.output.isEmpty)
        #expect(outcome.errorOutput.hasPrefix("new-module: "))
        #expect(outcome.errorOutput.contains(reason))
        #expect(try Repository.contents(of: root) == before)
        #expect(Repository.directories(of: root) == directories)
    }

    @Test
    func anExistingDirectoryIsAClash() throws {
        let root = try Repository.makeMinimal()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Tests/InventoryModuleTests"),
            withIntermediateDirectories: true
        )
        let before = try Repository.contents(of: root)
        let outcome = NewModuleCommand.run(
            ["Inventory", "--base-url", "https://i.example.com"], currentDirectory: root.path)
        #expect(outcome.exitCode == 64)
        #expect(outcome.errorOutput.contains("Tests/InventoryModuleTests already exists"))
        #expect(try Repository.contents(of: root) == before)
    }

    @Test
    func dryRunWritesNothing() throws {
        let root = try Repository.makeMinimal()
        defer { try? FileManager.default.removeItem(at: root) }
        let before = try Repository.contents(of: root)
        let outcome = NewModuleCommand.run(
            ["Inventory", "--base-url", "https://i.example.com", "--dry-run"],
            currentDirectory: root.path
        )
        #expect(outcome.exitCode == 0)
        #expect(outcome.output.contains("would create Modules/InventoryModule/InventoryClient.swift"))
        #expect(outcome.output.contains("would edit Package.swift"))
        #expect(try Repository.contents(of: root) == before)
    }

    /// A write that fails half-way (here: `Tests` is a file, so the test directory cannot be
    /// made after the module's files were written) leaves the repository as it was.
    @Test
    func aFailedWriteIsUndone() throws {
        let root = try Repository.makeMinimal()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("not a directory\n".utf8).write(to: root.appendingPathComponent("Tests"))
        let before = try Repository.contents(of: root)
        let directories = Repository.directories(of: root)
        let outcome = NewModuleCommand.run(
            ["Inventory", "--base-url", "https://i.example.com"], currentDirectory: root.path)
        #expect(outcome.exitCode == 74)
        #expect(outcome.errorOutput.contains("what had been written was removed"))
        #expect(try Repository.contents(of: root) == before)
        #expect(Repository.directories(of: root) == directories)
    }

    @Test
    func helpExitsZero() {
        let outcome = NewModuleCommand.run(["--help"], currentDirectory: "/")
        #expect(outcome.exitCode == 0)
        #expect(outcome.output.hasPrefix("OVERVIEW: "))
    }

    @Test
    func secondRunOfTheSameNameIsRefused() throws {
        let root = try Repository.makeMinimal()
        defer { try? FileManager.default.removeItem(at: root) }
        let arguments = ["Inventory", "--base-url", "https://i.example.com"]
        #expect(NewModuleCommand.run(arguments, currentDirectory: root.path).exitCode == 0)
        let before = try Repository.contents(of: root)
        let again = NewModuleCommand.run(arguments, currentDirectory: root.path)
        #expect(again.exitCode == 64)
        #expect(try Repository.contents(of: root) == before)
    }
}
