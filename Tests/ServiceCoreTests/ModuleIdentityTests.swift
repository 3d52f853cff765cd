import ServiceCore
import Testing

/// A module's identity as declared data, and the base URLs it knows by environment name.
struct ModuleIdentityTests {
    @Test
    func defaultBaseURLsAreByEnvironmentName() {
        let expected = [
            "staging": "https://catalog.staging.example.test", "production": "https://catalog.example.test/api/",
        ]
        #expect(CatalogModuleIdentity.defaultBaseURLs == expected)
        #expect(ProductionOnlyIdentity.defaultBaseURLs == ["production": "https://p.example.test"])
    }

    @Test(arguments: [
        ("production", "https://catalog.example.test/api/"),
        ("staging", "https://catalog.staging.example.test"),
        ("sandbox", nil),
        ("Production", nil),
        ("", nil),
    ])
    func defaultBaseURLForAnEnvironmentName(_ environment: String, _ url: String?) {
        #expect(CatalogModuleIdentity.defaultBaseURL(for: environment) == url)
    }

    /// A registry holds identities as types; each keeps its own data.
    @Test
    func identitiesAreListedAsTypes() {
        let registered: [any ModuleIdentity.Type] = [CatalogModuleIdentity.self, ProductionOnlyIdentity.self]
        #expect(registered.map { $0.name } == ["CatalogModule", "ProductionOnlyModule"])
        #expect(registered.map { $0.keyID } == ["catalog-1", "production-only-1"])
        #expect(registered.map { $0.tag } == ["CatalogModule", "ProductionOnlyModule"])
    }
}
