import FeedModule
import Foundation
import ServiceCore
import ServiceTesting
import Testing

/// The domain setting per environment and the module's identity.
struct FeedDomainTests {
    @Test
    func knownEnvironmentsHaveTheirURLs() throws {
        #expect(FeedDomain.baseURL(for: .production) == "https://feed.api.example.com")
        #expect(FeedDomain.baseURL(for: .staging) == "https://feed.staging.api.example.com")
        #expect(FeedDomain.baseURL(for: .sandbox) == nil)
        #expect(try FeedDomain(environment: .staging).resolvedBaseURL() == "https://feed.staging.api.example.com")
    }

    @Test
    func overrideWinsAndReachesTheClient() throws {
        let client = try FeedClient(domain: .sandbox(baseURL: "http://127.0.0.1:40002"), transport: MockTransport())
        let request = try client.serviceClient.makeRequest(.post(id: "p1"))
        #expect(request.url.absoluteString == "http://127.0.0.1:40002/v1/posts/p1")
    }

    @Test
    func sandboxWithoutOverrideFailsWhenTheClientIsMade() throws {
        let error = try #require(throws: ServiceError.self) {
            try FeedClient(domain: .init(environment: .sandbox), transport: MockTransport())
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.module == "FeedModule")
    }

    @Test(arguments: ["", "feed.example.com", "file:///tmp/feed", "https://feed.example.com/?q=1"])
    func badOverrideFailsWhenTheClientIsMade(_ url: String) throws {
        let error = try #require(throws: ServiceError.self) {
            try FeedClient(domain: .init(environment: .production, baseURLOverride: url), transport: MockTransport())
        }
        #expect(error.code == .invalidConfiguration)
    }

    @Test
    func identityIsConsistent() {
        #expect(FeedModuleIdentity.name == "FeedModule")
        #expect(FeedService.moduleName == FeedModuleIdentity.name)
        #expect(FeedModuleIdentity.keyID == "feed-1")
        #expect(FeedModuleIdentity.tag == "FeedModule")
        #expect(
            FeedModuleIdentity.defaultBaseURLs == [
                "staging": "https://feed.staging.api.example.com", "production": "https://feed.api.example.com",
            ]
        )
        #expect(FeedClient.Module.self == FeedModuleIdentity.self)
        #expect(FeedModuleIdentity.defaultBaseURL(for: "production") == FeedDomain.baseURL(for: .production))
    }
}
