import Foundation
import HTTPTypes
import ServiceCore
import Testing

/// A module's typed client over the shared protocol: made from a domain setting, validating
/// through the generic client, and decoding answers.
struct ModuleClientTests {
    @Test
    func aDomainGivesTheBaseURL() throws {
        let client = try CatalogClient(
            domain: .init(environment: .production), transport: ClosureTransport.json(200, "{}"))
        #expect(client.serviceClient.baseURL.absoluteString == "https://catalog.example.test/api/")
        let request = try client.serviceClient.makeRequest(.item(id: "a b"))
        #expect(request.url.absoluteString == "https://catalog.example.test/api/v1/items/a%20b")
    }

    @Test
    func theSandboxTakesItsOverride() throws {
        let client = try CatalogClient(
            domain: .sandbox(baseURL: "http://127.0.0.1:40003/"),
            transport: ClosureTransport.json(200, "{}")
        )
        let request = try client.serviceClient.makeRequest(.search(cursor: "c1", limit: 5))
        #expect(request.url.absoluteString == "http://127.0.0.1:40003/v1/items?cursor=c1&limit=5")
    }

    @Test
    func middlewaresAndConfigurationReachTheGenericClient() throws {
        let configuration = ServiceClientConfiguration(defaultHeaders: ["X-Client": "catalog"])
        let client = try CatalogClient(
            domain: .init(environment: .staging),
            transport: ClosureTransport.json(200, "{}"),
            middlewares: [RequestIDMiddleware()],
            configuration: configuration
        )
        #expect(client.serviceClient.middlewares.count == 1)
        #expect(try client.serviceClient.makeRequest(.item(id: "x")).headers["X-Client"] == "catalog")
    }

    @Test
    func aSandboxWithoutOverrideFailsWhenTheClientIsMade() throws {
        let error = try #require(throws: ServiceError.self) {
            try CatalogClient(domain: .init(environment: .sandbox), transport: ClosureTransport.json(200, "{}"))
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.module == "CatalogModule")
        #expect(error.message.contains("sandbox"))
    }

    @Test(arguments: ["", "catalog.example.test", "ftp://catalog.example.test", "https://u:p@catalog.example.test"])
    func aBadOverrideFailsWhenTheClientIsMade(_ url: String) throws {
        let error = try #require(throws: ServiceError.self) {
            try CatalogClient(
                domain: .init(environment: .production, baseURLOverride: url),
                transport: ClosureTransport.json(200, "{}")
            )
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.module == "CatalogModule")
    }

    @Test
    func answersDecode() async throws {
        let transport = ClosureTransport.json(200, #"{"id":"i1","name":"First"}"#)
        let client = try CatalogClient(domain: .sandbox(baseURL: "http://127.0.0.1:40004"), transport: transport)
        #expect(try await client.item(id: "i1") == Profile(id: "i1", name: "First"))
        #expect(transport.requests.map(\.url.absoluteString) == ["http://127.0.0.1:40004/v1/items/i1"])
    }

    @Test(arguments: [
        ("", "id must not be empty"),
        ("..", "id must not be \".\" or \"..\""),
        ("a\u{1}", "id must not contain control characters"),
    ])
    func badInputIsRefusedBeforeAnythingIsSent(_ id: String, _ message: String) async throws {
        let transport = ClosureTransport.json(200, #"{"id":"i1","name":"First"}"#)
        let client = try CatalogClient(domain: .init(environment: .production), transport: transport)
        let error = try await #require(throws: ServiceError.self) { try await client.item(id: id) }
        #expect(error.code == .invalidRequest)
        #expect(error.module == "CatalogModule")
        #expect(error.operation == "item")
        #expect(error.message == message)
        #expect(transport.requests.isEmpty)
    }

    @Test
    func aModulesOwnRuleFailsTheSameWay() throws {
        let client = try CatalogClient(
            domain: .init(environment: .production), transport: ClosureTransport.json(200, "{}"))
        let noon = RFC3339TimestampTests.noon
        let entry = CatalogEntry(name: "n", url: "u", listedAt: noon, retiredAt: noon - 1)
        let error = try #require(throws: ServiceError.self) { try client.serviceClient.makeRequest(.list(entry)) }
        #expect(error.code == .invalidRequest)
        #expect(error.operation == "list")
        #expect(error.message == "retiredAt must be after listedAt")
    }
}
