import Foundation
import HTTPTypes
import Testing

@testable import SwiftyDaemon

/// The OpenAPI document is the app API's contract: every route the daemon serves is in it, every
/// operation in it is served, and the admin server serves the same bytes as `docs/openapi.json`.
struct OpenAPIDocumentTests {
    /// The document in the repository.
    static func document() throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return try #require(object as? [String: Any])
    }

    /// `(METHOD, /path/{param})` of every operation in the document.
    static func documentedOperations() throws -> Set<String> {
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        var operations: Set<String> = []
        for (path, item) in paths {
            for method in item.keys where ["get", "put", "post", "delete", "patch", "head", "options"].contains(method)
            {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    /// `:name` segments written as OpenAPI's `{name}`.
    static func openAPIPath(_ pattern: String) -> String {
        pattern.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            .joined(separator: "/")
    }

    @Test func everyRouteIsDocumentedAndEveryOperationIsServed() async throws {
        let api = try AppAPI(modules: RouteGroupTests.factory(), tokenCache: InMemoryTokenCache(), tokenTTL: 30)
        let served = Set(api.declaredRoutes.map { "\($0.method) \(Self.openAPIPath($0.pattern))" })
        let documented = try Self.documentedOperations()
        #expect(served.subtracting(documented).isEmpty, "served but not in docs/openapi.json")
        #expect(documented.subtracting(served).isEmpty, "in docs/openapi.json but not served")
        #expect(served.count == api.declaredRoutes.count, "a route is declared twice")
    }

    @Test func theDocumentIsOpenAPI31WithABearerScheme() throws {
        let document = try Self.document()
        #expect(document["openapi"] as? String == "3.1.0")
        let components = try #require(document["components"] as? [String: Any])
        let schemes = try #require(components["securitySchemes"] as? [String: [String: String]])
        #expect(schemes["bearer"]?["scheme"] == "bearer")
    }

    /// Every problem answer names its codes, so a client can tell them apart.
    @Test func everyProblemAnswerListsItsCodes() throws {
        let components = try #require(try Self.document()["components"] as? [String: Any])
        let responses = try #require(components["responses"] as? [String: [String: Any]])
        for (name, response) in responses {
            let description = try #require(response["description"] as? String)
            #expect(description.contains("Codes: `"), "\(name) lists no codes")
        }
    }

    @Test func theCompiledInDocumentIsTheOneInDocs() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.json")
        #expect(try Data(contentsOf: url) == Data(PackageResources.openapi_json))
    }
}

/// The running daemon's admin server hands out the document.
struct OpenAPIDocumentServingTests {
    @Test func theAdminServerServesTheDocument() async throws {
        let daemon = try await DaemonProcess.start()
        let admin = AppClient(baseURL: daemon.adminURL)
        let answer = try await admin.get("/openapi.json", token: nil)
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/json")
        #expect(Data(answer.text.utf8) == Data(PackageResources.openapi_json))
    }
}
