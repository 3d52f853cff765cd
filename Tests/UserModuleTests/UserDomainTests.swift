import Foundation
import ServiceCore
import ServiceTesting
import Testing
import UserModule

/// The domain setting per environment and the module's identity.
struct UserDomainTests {
    @Test
    func knownEnvironmentsHaveTheirURLs() throws {
        #expect(UserDomain.baseURL(for: .production) == "https://users.api.example.com")
        #expect(UserDomain.baseURL(for: .staging) == "https://users.staging.api.example.com")
        #expect(UserDomain.baseURL(for: .sandbox) == nil)
        #expect(try UserDomain(environment: .production).resolvedBaseURL() == "https://users.api.example.com")
    }

    @Test
    func overrideWins() throws {
        let domain = UserDomain(environment: .staging, baseURLOverride: "http://127.0.0.1:40001")
        #expect(try domain.resolvedBaseURL() == "http://127.0.0.1:40001")
        #expect(
            UserDomain.sandbox(baseURL: "http://127.0.0.1:1")
                == .init(environment: .sandbox, baseURLOverride: "http://127.0.0.1:1"))
    }

    @Test
    func clientUsesTheDomain() throws {
        let client = try UserClient(domain: .sandbox(baseURL: "http://127.0.0.1:40001/"), transport: MockTransport())
        let request = try client.serviceClient.makeRequest(.profile(id: "bob"))
        #expect(request.url.absoluteString == "http://127.0.0.1:40001/v1/users/bob")
    }

    @Test
    func sandboxWithoutOverrideFailsWhenTheClientIsMade() throws {
        let error = try #require(throws: ServiceError.self) {
            try UserClient(domain: .init(environment: .sandbox), transport: MockTransport())
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.module == "UserModule")
        #expect(error.message.contains("sandbox"))
    }

    @Test(arguments: ["", "users.example.com", "ftp://users.example.com", "https://", "https://u:p@users.example.com"])
    func badOverrideFailsWhenTheClientIsMade(_ url: String) throws {
        let error = try #require(throws: ServiceError.self) {
            try UserClient(domain: .init(environment: .production, baseURLOverride: url), transport: MockTransport())
        }
        #expect(error.code == .invalidConfiguration)
    }

    @Test
    func identityIsConsistent() {
        #expect(UserModuleIdentity.name == "UserModule")
        #expect(UserService.moduleName == UserModuleIdentity.name)
        #expect(UserModuleIdentity.keyID == "user-1")
        #expect(UserModuleIdentity.tag == "UserModule")
        #expect(
            UserModuleIdentity.defaultBaseURLs == [
                "staging": "https://users.staging.api.example.com", "production": "https://users.api.example.com",
            ]
        )
        #expect(UserClient.Module.self == UserModuleIdentity.self)
        #expect(UserModuleIdentity.defaultBaseURL(for: "production") == UserDomain.baseURL(for: .production))
    }
}
