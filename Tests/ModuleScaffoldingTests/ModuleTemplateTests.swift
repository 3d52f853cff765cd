import Foundation
import ModuleScaffolding
import Testing

/// The generated files: where they go, their shape compared with the hand-written modules, and
/// their layout.
struct ModuleTemplateTests {
    static let inventory = try! ModuleSpec(name: "Inventory", baseURL: "https://inventory.example.com")

    @Test
    func filesGoUnderTheModuleAndTestDirectories() {
        let paths = ModuleTemplate.files(for: Self.inventory).map(\.path)
        #expect(Set(paths).count == paths.count)
        #expect(
            paths.allSatisfy {
                $0.hasPrefix("Modules/InventoryModule/") || $0.hasPrefix("Tests/InventoryModuleTests/")
                    || $0 == "Apps/SwiftyDaemon/Routes/InventoryRoutes.swift"
            }
        )
        #expect(paths.contains("Modules/InventoryModule/InventoryService.swift"))
        #expect(paths.contains("Modules/InventoryModule/Models/InventoryItem.swift"))
        #expect(paths.contains("Tests/InventoryModuleTests/InventoryClientTests.swift"))
    }

    @Test
    func theExampleCaseIsComplete() throws {
        let files = Dictionary(
            uniqueKeysWithValues: ModuleTemplate.files(for: Self.inventory).map { ($0.path, $0.contents) })
        let service = try #require(files["Modules/InventoryModule/InventoryService.swift"])
        #expect(service.contains("public enum InventoryService: Service, Equatable {"))
        #expect(service.contains("case item(id: String)"))
        #expect(service.contains("public static var moduleName: String { InventoryModuleIdentity.name }"))
        let request = try #require(files["Modules/InventoryModule/InventoryService+Request.swift"])
        #expect(request.contains(#"case .item(let id): "/v1/items/\(id)""#))
        let client = try #require(files["Modules/InventoryModule/InventoryClient.swift"])
        #expect(client.contains("public func item(id: String) async throws -> InventoryItem {"))
        let identity = try #require(files["Modules/InventoryModule/InventoryModuleIdentity.swift"])
        #expect(identity.contains(#"public static let keyID = "inventory-1""#))
        #expect(identity.contains(#"public static let tag = "InventoryModule""#))
        #expect(identity.contains(#"[ServiceEnvironment: String] = [.production: "https://inventory.example.com"]"#))
        #expect(!identity.contains(".staging:"))
        let domain = try #require(files["Modules/InventoryModule/InventoryDomain.swift"])
        #expect(domain.contains("public typealias InventoryDomain = ServiceDomain<InventoryModuleIdentity>"))
        let envelope = try #require(files["Modules/InventoryModule/InventoryErrorEnvelope.swift"])
        #expect(envelope.contains("public typealias InventoryErrorEnvelope = ProblemDetails"))
        let routes = try #require(files["Apps/SwiftyDaemon/Routes/InventoryRoutes.swift"])
        #expect(routes.contains("struct InventoryRoutes: AppRouteGroup {"))
        #expect(routes.contains("static let modules: [any ModuleIdentity.Type] = [InventoryModuleIdentity.self]"))
        #expect(routes.contains(#"ScriptedAnswer(module: InventoryModuleIdentity.name, "GET", "/v1/items/:id")"#))
        #expect(routes.contains(#"routes.add("GET", "/v1/inventory/items/:id") { call in"#))
        #expect(routes.contains(#"try await client.item(id: call.parameters["id"] ?? "")"#))
        let tests = try #require(files["Tests/InventoryModuleTests/InventoryDomainTests.swift"])
        #expect(tests.contains(#"let staging: String? = nil"#))
    }

    /// The files every module shares, generated for the three hand-written modules' names and
    /// domains, are exactly the hand-written files: the generator makes modules of the same shape.
    @Test(arguments: [
        ("User", "https://users.api.example.com", "https://users.staging.api.example.com", "user-1"),
        ("Feed", "https://feed.api.example.com", "https://feed.staging.api.example.com", "feed-1"),
        ("Payment", "https://payments.api.example.com", "https://payments.staging.api.example.com", "payment-1"),
    ])
    func sharedFilesMatchTheHandWrittenModules(_ name: String, _ production: String, _ staging: String, _ keyID: String)
        throws
    {
        let spec = try ModuleSpec(name: name, baseURL: production, stagingBaseURL: staging, keyID: keyID)
        let shared = [
            "Modules/\(name)Module/\(name)Domain.swift",
            "Modules/\(name)Module/\(name)ErrorEnvelope.swift",
            "Modules/\(name)Module/\(name)ModuleIdentity.swift",
        ]
        let generated = Dictionary(uniqueKeysWithValues: ModuleTemplate.files(for: spec).map { ($0.path, $0.contents) })
        for path in shared {
            let written = try Repository.text(path)
            #expect(generated[path] == written, "\(path) differs from what new-module generates")
        }
    }

    @Test(arguments: [
        try! ModuleSpec(name: "Inventory", baseURL: "https://inventory.example.com"),
        try! ModuleSpec(
            name: "AbcdefghijKlmnopqrstUvwxyzAbcd",
            baseURL: "https://a-rather-long-host-name.inventory.example.com/with/a/path/prefix/",
            stagingBaseURL: "https://a-rather-long-host-name.staging.inventory.example.com/with/a/path/prefix/",
            keyID: String(repeating: "k", count: 64)
        ),
    ])
    func linesFitIn120Columns(_ spec: ModuleSpec) {
        for file in ModuleTemplate.files(for: spec) {
            for (number, line) in file.contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                #expect(line.count <= 120, "\(file.path):\(number + 1) has \(line.count) columns")
                #expect(!line.hasSuffix(" "), "\(file.path):\(number + 1) ends with a space")
            }
            #expect(
                file.contents.hasSuffix("\n") && !file.contents.hasSuffix("\n\n"), "\(file.path) ends with one newline")
        }
    }

    @Test
    func urlsAndKeyIDsAreEscapedInLiterals() throws {
        let spec = try ModuleSpec(name: "Inventory", baseURL: "https://inventory.example.com/a%22b")
        let identity = try #require(
            ModuleTemplate.files(for: spec).first { $0.path.hasSuffix("InventoryModuleIdentity.swift") })
        #expect(identity.contents.contains(#""https://inventory.example.com/a%22b""#))
    }
}
