import ModuleScaffolding
import Testing

/// Names, base URLs and key ids: what is accepted, what is refused, and what is derived.
struct ModuleSpecTests {
    @Test
    func defaultsAreDerivedFromTheName() throws {
        let spec = try ModuleSpec(name: "Inventory", baseURL: "https://inventory.example.com")
        #expect(spec.moduleName == "InventoryModule")
        #expect(spec.testTargetName == "InventoryModuleTests")
        #expect(spec.tag == "InventoryModule")
        #expect(spec.slug == "inventory")
        #expect(spec.keyID == "inventory-1")
        #expect(spec.moduleDirectory == "Modules/InventoryModule")
        #expect(spec.testDirectory == "Tests/InventoryModuleTests")
        #expect(spec.stagingBaseURL == nil)
        #expect(
            spec.generatedTypeNames == [
                "InventoryService", "InventoryClient", "InventoryDomain", "InventoryErrorEnvelope",
                "InventoryModuleIdentity", "InventoryItem",
            ]
        )
    }

    @Test(arguments: [
        ("Inventory", "inventory"), ("OrderHistory", "order-history"), ("HTTPProxy", "http-proxy"),
        ("Search2", "search2"), ("Geo2Ip", "geo2-ip"), ("X", "x"), ("ABC", "abc"),
    ])
    func slugs(_ name: String, _ slug: String) {
        #expect(ModuleSpec.slug(for: name) == slug)
    }

    @Test(arguments: ["Inventory", "X", "OrderHistory", "HTTPProxy", "Search2", String(repeating: "A", count: 30)])
    func acceptedNames(_ name: String) throws {
        #expect(try ModuleSpec(name: name, baseURL: "https://x.example.com").name == name)
    }

    @Test(arguments: [
        ("", "the module name is empty"),
        ("inventory", "is not an UpperCamelCase Swift identifier"),
        ("9Lives", "is not an UpperCamelCase Swift identifier"),
        ("_Private", "is not an UpperCamelCase Swift identifier"),
        ("Inven-tory", "is not an UpperCamelCase Swift identifier"),
        ("Inven tory", "is not an UpperCamelCase Swift identifier"),
        ("Invéntory", "is not an UpperCamelCase Swift identifier"),
        ("Inventory\n", "is not an UpperCamelCase Swift identifier"),
        ("Inventory;rm", "is not an UpperCamelCase Swift identifier"),
        ("../Evil", "is not an UpperCamelCase Swift identifier"),
        ("InventoryModule", "without the Module suffix: \"Inventory\""),
        (String(repeating: "A", count: 31), "is longer than 30 characters"),
    ])
    func refusedNames(_ name: String, _ reason: String) throws {
        let error = try #require(throws: ScaffoldingError.self) {
            try ModuleSpec(name: name, baseURL: "https://x.example.com")
        }
        #expect(error.code == .invalidName)
        #expect(error.exitCode == 64)
        #expect(error.message.contains(reason))
        #expect(!error.message.contains("\n"))
    }

    @Test(arguments: [
        "https://inventory.example.com", "http://127.0.0.1:8080", "https://api.example.com/inventory/",
        "HTTPS://INVENTORY.EXAMPLE.COM", "http://[::1]:9000",
    ])
    func acceptedBaseURLs(_ url: String) throws {
        #expect(try ModuleSpec(name: "Inventory", baseURL: url).productionBaseURL == url)
    }

    @Test(arguments: [
        ("", "is empty"),
        ("inventory.example.com", "is not absolute http or https"),
        ("/v1/inventory", "is not absolute http or https"),
        ("ftp://inventory.example.com", "is not absolute http or https"),
        ("file:///etc/passwd", "is not absolute http or https"),
        ("https://", "has no host"),
        ("https://inventory.example.com/?a=1", "has a query or fragment"),
        ("https://inventory.example.com/#top", "has a query or fragment"),
        ("https://user:secret@inventory.example.com", "holds credentials"),
        ("https://inventory.example.com/a b", "has spaces, control characters or non-ASCII characters"),
        ("https://inventory.example.com\"+x", "is not a valid URL"),
        ("https://invéntory.example.com", "has spaces, control characters or non-ASCII characters"),
    ])
    func refusedBaseURLs(_ url: String, _ reason: String) throws {
        let error = try #require(throws: ScaffoldingError.self) { try ModuleSpec(name: "Inventory", baseURL: url) }
        #expect(error.code == .invalidBaseURL)
        #expect(error.exitCode == 64)
        #expect(error.message.contains(reason))
        #expect(error.message.contains("--base-url"))
    }

    @Test
    func stagingURLIsCheckedToo() throws {
        let error = try #require(throws: ScaffoldingError.self) {
            try ModuleSpec(name: "Inventory", baseURL: "https://i.example.com", stagingBaseURL: "i.staging")
        }
        #expect(error.code == .invalidBaseURL)
        #expect(error.message.contains("--staging-base-url"))
        let spec = try ModuleSpec(
            name: "Inventory",
            baseURL: "https://i.example.com",
            stagingBaseURL: "https://i.staging.example.com"
        )
        #expect(spec.stagingBaseURL == "https://i.staging.example.com")
    }

    @Test(arguments: ["inventory-1", "K.9_x", "a", String(repeating: "k", count: 64)])
    func acceptedKeyIDs(_ keyID: String) throws {
        #expect(try ModuleSpec(name: "Inventory", baseURL: "https://i.example.com", keyID: keyID).keyID == keyID)
    }

    @Test(arguments: ["", "-leading", "has space", "quote\"", "back\\slash", "é", String(repeating: "k", count: 65)])
    func refusedKeyIDs(_ keyID: String) throws {
        let error = try #require(throws: ScaffoldingError.self) {
            try ModuleSpec(name: "Inventory", baseURL: "https://i.example.com", keyID: keyID)
        }
        #expect(error.code == .invalidKeyID)
        #expect(error.exitCode == 64)
    }
}
