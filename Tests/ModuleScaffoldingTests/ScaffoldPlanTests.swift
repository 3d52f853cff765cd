import Foundation
import ModuleScaffolding
import Testing

/// Planning against a repository: clashes refused, edits and files planned.
struct ScaffoldPlanTests {
    static let inventory = try! ModuleSpec(name: "Inventory", baseURL: "https://inventory.example.com")

    @Test
    func plansTheFilesAndTheTwoEdits() throws {
        let snapshot = RepositorySnapshot(
            manifest: Repository.manifest, registry: Repository.registry, openAPIDocument: Repository.openAPIDocument)
        let plan = try ScaffoldPlan.make(for: Self.inventory, in: snapshot)
        #expect(plan.newFiles == ModuleTemplate.files(for: Self.inventory))
        #expect(
            plan.edits.map(\.path) == [
                "Package.swift", "Apps/SwiftyDaemon/FeatureModuleRegistry.swift",
                "Apps/SwiftyDaemon/Resources/openapi.json",
            ])
        #expect(try ManifestEditor.featureModules(in: plan.edits[0].contents).contains("InventoryModule"))
        #expect(try RegistryEditor.registeredModules(in: plan.edits[1].contents).contains("InventoryModule"))
        let document = try JSONSerialization.jsonObject(with: Data(plan.edits[2].contents.utf8)) as? [String: Any]
        let paths = try #require(document?["paths"] as? [String: Any])
        #expect(paths["/v1/inventory/items/{id}"] != nil)
        #expect(paths.count == 11)
    }

    @Test
    func anExampleRouteAlreadyDocumentedIsAClash() throws {
        let document = try OpenAPIEditor.adding(Self.inventory, to: Repository.openAPIDocument)
        #expect(throws: ScaffoldingError.self) {
            try OpenAPIEditor.adding(Self.inventory, to: document)
        }
    }

    @Test(arguments: [
        (
            "User",
            RepositorySnapshot(
                manifest: Repository.manifest, registry: Repository.registry,
                openAPIDocument: Repository.openAPIDocument), "UserModule"
        ),
        (
            "ServiceCore",
            RepositorySnapshot(
                manifest: Repository.manifest.replacingOccurrences(
                    of: "\"ServiceCore\"", with: "\"ServiceCoreModule\""),
                registry: Repository.registry, openAPIDocument: Repository.openAPIDocument
            ),
            "ServiceCoreModule already exists"
        ),
        (
            "Inventory",
            RepositorySnapshot(
                manifest: Repository.manifest,
                registry: Repository.registry, openAPIDocument: Repository.openAPIDocument,
                existingPaths: ["Modules/InventoryModule"]
            ),
            "Modules/InventoryModule already exists"
        ),
        (
            "Inventory",
            RepositorySnapshot(
                manifest: Repository.manifest,
                registry: Repository.registry, openAPIDocument: Repository.openAPIDocument,
                existingPaths: ["Tests/InventoryModuleTests"]
            ),
            "Tests/InventoryModuleTests already exists"
        ),
        (
            "Service",
            RepositorySnapshot(
                manifest: Repository.manifest,
                registry: Repository.registry, openAPIDocument: Repository.openAPIDocument,
                publicTypeNames: ["ServiceClient"]
            ),
            "ServiceClient"
        ),
        (
            "Inventory",
            RepositorySnapshot(
                manifest: Repository.manifest,
                registry: Repository.registry.replacingOccurrences(of: "UserModule", with: "InventoryModule"),
                openAPIDocument: Repository.openAPIDocument
            ),
            "already registered"
        ),
    ])
    func refusesClashes(_ name: String, _ snapshot: RepositorySnapshot, _ reason: String) throws {
        let spec = try ModuleSpec(name: name, baseURL: "https://x.example.com")
        let error = try #require(throws: ScaffoldingError.self) { try ScaffoldPlan.make(for: spec, in: snapshot) }
        #expect(error.code == .nameClash)
        #expect(error.exitCode == 64)
        #expect(error.message.contains(reason))
    }

    @Test
    func readsTheRepositorysPublicTypes() async throws {
        let spec = try ModuleSpec(name: "Inventory", baseURL: "https://x.example.com")
        let snapshot = try RepositorySnapshot.read(root: Repository.root, for: spec)
        // Each read scans every source file: let the other tests' tasks run in between.
        await Task.yield()
        #expect(
            snapshot.publicTypeNames.isSuperset(of: ["ServiceClient", "UserClient", "Money", "Service", "HTTPRequest"]))
        #expect(snapshot.existingPaths.isEmpty)
        let service = try ModuleSpec(name: "Service", baseURL: "https://x.example.com")
        #expect(throws: ScaffoldingError.self) {
            try ScaffoldPlan.make(for: service, in: RepositorySnapshot.read(root: Repository.root, for: service))
        }
        await Task.yield()
        let user = try ModuleSpec(name: "User", baseURL: "https://x.example.com")
        #expect(
            try RepositorySnapshot.read(root: Repository.root, for: user).existingPaths.contains("Modules/UserModule"))
    }
}
