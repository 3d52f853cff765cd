import ServiceCore
import Testing

/// A module's identity as declared data and as one registration value.
struct ModuleIdentityTests {
    @Test
    func registrationHoldsTheDeclaredData() {
        let registration = CatalogModuleIdentity.registration
        #expect(
            registration
                == ModuleIdentity(
                    name: "CatalogModule",
                    keyID: "catalog-1",
                    tag: "CatalogModule",
                    knownBaseURLs: [
                        .staging: "https://catalog.staging.example.test",
                        .production: "https://catalog.example.test/api/",
                    ]
                )
        )
        #expect(registration != ProductionOnlyIdentity.registration)
    }

    @Test
    func defaultBaseURLsAreByEnvironmentName() {
        let expected = [
            "staging": "https://catalog.staging.example.test", "production": "https://catalog.example.test/api/",
        ]
        #expect(CatalogModuleIdentity.defaultBaseURLs == expected)
        #expect(CatalogModuleIdentity.registration.defaultBaseURLs == expected)
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
        #expect(CatalogModuleIdentity.registration.defaultBaseURL(for: environment) == url)
    }

    @Test
    func identitiesAreHashable() {
        let set: Set<ModuleIdentity> = [
            CatalogModuleIdentity.registration, CatalogModuleIdentity.registration, ProductionOnlyIdentity.registration,
        ]
        #expect(set.count == 2)
    }
}
