import ServiceCore
import Testing

/// A module's domain setting: the known URL per environment, an override that wins, and the
/// sandbox without an override refused with the module named.
struct ServiceDomainTests {
    @Test
    func environmentsAreTheThreeDeployments() {
        #expect(ServiceEnvironment.allCases.map(\.rawValue) == ["sandbox", "staging", "production"])
        #expect(ServiceEnvironment(rawValue: "production") == .production)
        #expect(ServiceEnvironment(rawValue: "Production") == nil)
    }

    @Test
    func knownURLsComeFromTheIdentity() throws {
        #expect(CatalogDomain.knownBaseURLs == CatalogModuleIdentity.knownBaseURLs)
        #expect(CatalogDomain.baseURL(for: .production) == "https://catalog.example.test/api/")
        #expect(CatalogDomain.baseURL(for: .staging) == "https://catalog.staging.example.test")
        #expect(CatalogDomain.baseURL(for: .sandbox) == nil)
        #expect(ServiceDomain<ProductionOnlyIdentity>.baseURL(for: .staging) == nil)
        #expect(try CatalogDomain(environment: .staging).resolvedBaseURL() == "https://catalog.staging.example.test")
        #expect(try CatalogDomain(environment: .production).resolvedBaseURL() == "https://catalog.example.test/api/")
    }

    @Test(arguments: ServiceEnvironment.allCases)
    func anOverrideWinsInEveryEnvironment(_ environment: ServiceEnvironment) throws {
        let domain = CatalogDomain(environment: environment, baseURLOverride: "http://127.0.0.1:40001")
        #expect(try domain.resolvedBaseURL() == "http://127.0.0.1:40001")
    }

    @Test
    func sandboxTakesTheUpstreamsURL() throws {
        let domain = CatalogDomain.sandbox(baseURL: "http://127.0.0.1:1")
        #expect(domain == CatalogDomain(environment: .sandbox, baseURLOverride: "http://127.0.0.1:1"))
        #expect(domain != CatalogDomain(environment: .sandbox, baseURLOverride: "http://127.0.0.1:2"))
        #expect(domain.environment == .sandbox)
        #expect(try domain.resolvedBaseURL() == "http://127.0.0.1:1")
    }

    @Test(arguments: [
        (ServiceEnvironment.sandbox, "the sandbox environment has no known base URL; give one as an override")
    ])
    func anEnvironmentWithoutAURLIsAConfigurationError(_ environment: ServiceEnvironment, _ message: String) throws {
        let error = try #require(throws: ServiceError.self) {
            try CatalogDomain(environment: environment).resolvedBaseURL()
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.module == "CatalogModule")
        #expect(error.operation == "init")
        #expect(error.message == message)
    }

    @Test
    func theModuleNamedIsTheDomainsOwn() throws {
        let error = try #require(throws: ServiceError.self) {
            try ServiceDomain<ProductionOnlyIdentity>(environment: .staging).resolvedBaseURL()
        }
        #expect(error.module == "ProductionOnlyModule")
        #expect(error.message == "the staging environment has no known base URL; give one as an override")
    }
}
