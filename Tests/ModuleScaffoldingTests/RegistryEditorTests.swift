import ModuleScaffolding
import Testing

/// The one-line registration (plus its import) in the daemon's feature-module registry.
struct RegistryEditorTests {
    @Test
    func readsTheList() throws {
        #expect(
            try RegistryEditor.registeredModules(in: Repository.registry) == [
                "FeedModule", "PaymentModule", "UserModule",
            ]
        )
    }

    @Test(arguments: [
        ("AccountModule", 0), ("InventoryModule", 1), ("QueueModule", 2), ("SearchModule", 2), ("StoreModule", 2),
        ("ZooModule", 3),
    ])
    func registersInOrderAndImports(_ module: String, _ position: Int) throws {
        let edited = try RegistryEditor.registering(module, in: Repository.registry)
        var expected = ["FeedModule", "PaymentModule", "UserModule"]
        expected.insert(module, at: position)
        #expect(try RegistryEditor.registeredModules(in: edited) == expected)

        let lines = edited.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let imports = lines.filter { $0.hasPrefix("import ") }
        #expect(imports == expected.map { "import \($0)" })
        let importedModules = lines.filter { $0.contains("import ") }.map { $0.split(separator: " ").last ?? "" }
        #expect(importedModules == importedModules.sorted(), "imports stay sorted by module, whatever their access")
        #expect(lines.contains("        \(module)Identity.registration,"))

        var remaining = lines
        remaining.removeAll { $0 == "import \(module)" || $0 == "        \(module)Identity.registration," }
        #expect(
            remaining == Repository.registry.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    @Test
    func editsTheRealRegistry() throws {
        let source = try Repository.text(RegistryEditor.path)
        let registered = try RegistryEditor.registeredModules(in: source)
        #expect(registered == registered.sorted())
        #expect(registered == (try ManifestEditor.featureModules(in: Repository.text("Package.swift"))))
        let edited = try RegistryEditor.registering("InventoryModule", in: source)
        #expect(try RegistryEditor.registeredModules(in: edited) == (registered + ["InventoryModule"]).sorted())
    }

    @Test
    func refusesAModuleAlreadyRegistered() throws {
        let error = try #require(throws: ScaffoldingError.self) {
            try RegistryEditor.registering("UserModule", in: Repository.registry)
        }
        #expect(error.code == .nameClash)
    }

    @Test(arguments: [
        ("public enum FeatureModuleRegistry {}\n", "exactly one line"),
        ("public static let modules: [Module] = [\n    .init(AIdentity.registration),\n]\n", "is not one"),
        ("public static let modules: [Module] = [\n    A.registration,\n]\n", "is not one"),
        ("public static let modules: [Module] = [\n        FeedModuleIdentity.registration,", "no closing ]"),
    ])
    func refusesAnUnrecognisedRegistry(_ source: String, _ reason: String) throws {
        let error = try #require(throws: ScaffoldingError.self) {
            try RegistryEditor.registering("InventoryModule", in: source)
        }
        #expect(error.code == .repository)
        #expect(error.message.contains(reason))
    }
}
