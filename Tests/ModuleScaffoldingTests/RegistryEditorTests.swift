import ModuleScaffolding
import Testing

/// The registration in the daemon's feature-module registry: one identity line, one route-group
/// line and the module's import.
struct RegistryEditorTests {
    static func spec(_ name: String) throws -> ModuleSpec {
        try ModuleSpec(name: name, baseURL: "https://x.example.com")
    }

    @Test
    func readsTheLists() throws {
        #expect(
            try RegistryEditor.registeredModules(in: Repository.registry) == [
                "FeedModule", "PaymentModule", "UserModule",
            ]
        )
        #expect(
            try RegistryEditor.registeredRouteGroups(in: Repository.registry) == [
                "FeedRoutes", "HomeRoutes", "PaymentRoutes", "UserRoutes",
            ]
        )
    }

    @Test(arguments: [
        ("Account", 0, 0), ("Inventory", 1, 2), ("Queue", 2, 3), ("Search", 2, 3), ("Store", 2, 3), ("Zoo", 3, 4),
    ])
    func registersInOrderAndImports(_ name: String, _ modulePosition: Int, _ groupPosition: Int) throws {
        let module = name + "Module"
        let edited = try RegistryEditor.registering(Self.spec(name), in: Repository.registry)
        var expected = ["FeedModule", "PaymentModule", "UserModule"]
        expected.insert(module, at: modulePosition)
        #expect(try RegistryEditor.registeredModules(in: edited) == expected)
        var groups = ["FeedRoutes", "HomeRoutes", "PaymentRoutes", "UserRoutes"]
        groups.insert(name + "Routes", at: groupPosition)
        #expect(try RegistryEditor.registeredRouteGroups(in: edited) == groups)

        let lines = edited.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let imports = lines.filter { $0.hasPrefix("import ") }
        #expect(imports == expected.map { "import \($0)" })
        let importedModules = lines.filter { $0.contains("import ") }.map { $0.split(separator: " ").last ?? "" }
        #expect(importedModules == importedModules.sorted(), "imports stay sorted by module, whatever their access")
        let added = ["import \(module)", "        \(module)Identity.self,", "        \(name)Routes.self,"]
        #expect(added.allSatisfy(lines.contains))

        var remaining = lines
        remaining.removeAll { added.contains($0) }
        #expect(
            remaining == Repository.registry.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    @Test
    func editsTheRealRegistry() throws {
        let source = try Repository.text(RegistryEditor.path)
        let registered = try RegistryEditor.registeredModules(in: source)
        #expect(registered == registered.sorted())
        #expect(registered == (try ManifestEditor.featureModules(in: Repository.text("Package.swift"))))
        let groups = try RegistryEditor.registeredRouteGroups(in: source)
        #expect(groups == groups.sorted())
        let edited = try RegistryEditor.registering(Self.spec("Inventory"), in: source)
        #expect(try RegistryEditor.registeredModules(in: edited) == (registered + ["InventoryModule"]).sorted())
        #expect(try RegistryEditor.registeredRouteGroups(in: edited) == (groups + ["InventoryRoutes"]).sorted())
    }

    @Test(arguments: ["User", "Home"])
    func refusesAModuleOrGroupAlreadyRegistered(_ name: String) throws {
        let error = try #require(throws: ScaffoldingError.self) {
            try RegistryEditor.registering(Self.spec(name), in: Repository.registry)
        }
        #expect(error.code == .nameClash)
        #expect(error.message.contains("already registered"))
    }

    @Test(arguments: [
        ("public enum FeatureModuleRegistry {}\n", "exactly one line"),
        ("public static let modules: [any ModuleIdentity.Type] = [\n    .init(AIdentity.self),\n]\n", "is not one"),
        ("public static let modules: [any ModuleIdentity.Type] = [\n    A.self,\n]\n", "is not one"),
        ("public static let modules: [any ModuleIdentity.Type] = [\n        FeedModuleIdentity.self,", "no closing ]"),
        ("public static let modules: [any ModuleIdentity.Type] = [\n    FeedModuleIdentity.self,\n]\n", "routeGroups"),
    ])
    func refusesAnUnrecognisedRegistry(_ source: String, _ reason: String) throws {
        let error = try #require(throws: ScaffoldingError.self) {
            try RegistryEditor.registering(Self.spec("Inventory"), in: source)
        }
        #expect(error.code == .repository)
        #expect(error.message.contains(reason))
    }
}
