import Foundation
import ModuleScaffolding
import Testing

/// The one-line edit of `featureModules` in `Package.swift`.
struct ManifestEditorTests {
    @Test
    func readsTheList() throws {
        #expect(
            try ManifestEditor.featureModules(in: Repository.manifest) == ["FeedModule", "PaymentModule", "UserModule"])
    }

    @Test(arguments: [
        ("AccountModule", 0), ("InventoryModule", 1), ("QueueModule", 2), ("ZooModule", 3), ("PaymentsModule", 2),
    ])
    func insertsOneLineInOrder(_ module: String, _ position: Int) throws {
        let edited = try ManifestEditor.addingFeatureModule(module, to: Repository.manifest)
        var expected = ["FeedModule", "PaymentModule", "UserModule"]
        expected.insert(module, at: position)
        #expect(try ManifestEditor.featureModules(in: edited) == expected)
        #expect(expected == expected.sorted())

        let before = Repository.manifest.split(separator: "\n", omittingEmptySubsequences: false)
        var after = edited.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(after.count == before.count + 1)
        let inserted = try #require(after.firstIndex(of: "    \"\(module)\","))
        after.remove(at: inserted)
        #expect(after == before)
    }

    @Test
    func keepsTheFilesIndentation() throws {
        let tabbed = Repository.manifest.replacingOccurrences(of: "    \"", with: "  \"")
        let edited = try ManifestEditor.addingFeatureModule("InventoryModule", to: tabbed)
        #expect(edited.contains("\n  \"InventoryModule\",\n"))
    }

    @Test
    func editsTheRealManifest() throws {
        let manifest = try Repository.text("Package.swift")
        let listed = try ManifestEditor.featureModules(in: manifest)
        #expect(listed.contains("UserModule"))
        #expect(listed == listed.sorted())
        let edited = try ManifestEditor.addingFeatureModule("ZzzModule", to: manifest)
        #expect(try ManifestEditor.featureModules(in: edited) == listed + ["ZzzModule"])
        #expect(ManifestEditor.declaredTargetNames(in: manifest).isSuperset(of: ["ServiceCore", "ModuleScaffolding"]))
    }

    @Test
    func refusesAModuleAlreadyListed() throws {
        let error = try #require(throws: ScaffoldingError.self) {
            try ManifestEditor.addingFeatureModule("PaymentModule", to: Repository.manifest)
        }
        #expect(error.code == .nameClash)
    }

    @Test(arguments: [
        ("let package = Package(name: \"X\")\n", "exactly one line"),
        (Repository.manifest + "\nlet featureModules: [String] = [\n]\n", "exactly one line"),
        ("let featureModules: [String] = [\n    \"FeedModule\",", "no closing ]"),
        ("let featureModules: [String] = [\n    \"FeedModule\", \"UserModule\",\n]\n", "not one \"Name\", entry"),
        ("let featureModules: [String] = [\n    names.joined(),\n]\n", "not one \"Name\", entry"),
    ])
    func refusesAnUnrecognisedManifest(_ manifest: String, _ reason: String) throws {
        let error = try #require(throws: ScaffoldingError.self) {
            try ManifestEditor.addingFeatureModule("InventoryModule", to: manifest)
        }
        #expect(error.code == .repository)
        #expect(error.exitCode == 66)
        #expect(error.message.contains(reason))
    }

    @Test
    func findsDeclaredTargets() {
        #expect(
            ManifestEditor.declaredTargetNames(in: Repository.manifest) == [
                "Swifty", "ServiceCore", "ServiceCoreTests",
            ])
    }
}
