import Foundation
import HTTPFramingCorpus
import HTTPServer
import HTTPTypes
import ServiceCore
import Synchronization
import Testing

struct RouterTests {
    static func makeRouter() -> Router {
        var router = Router()
        router.add("GET", "/v1/users/:id") { _, parameters in
            .json(200, ["id": parameters["id"] ?? "?"])
        }
        router.add("DELETE", "/v1/users/:id") { _, _ in .noContent }
        router.add("GET", "/v1/users/:id/posts/:post") { _, parameters in
            .json(200, ["id": parameters["id"] ?? "?", "post": parameters["post"] ?? "?"])
        }
        router.add("POST", "/v1/items") { request, _ in
            .json(201, ["size": "\(request.body.count)"])
        }
        return router
    }

    private func route(_ method: String, _ target: String, body: Data = Data()) async -> ServerResponse {
        await Self.makeRouter().handle(ServerRequest(method: method, target: target, body: body))
    }

    private func json(_ response: ServerResponse) throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: response.body)
    }

    @Test func parameterIsExtracted() async throws {
        let response = await route("GET", "/v1/users/42")
        #expect(response.status == 200)
        #expect(try json(response) == ["id": "42"])
    }

    @Test func parameterIsPercentDecodedAfterSplitting() async throws {
        let response = await route("GET", "/v1/users/a%2Fb?x=1")
        #expect(response.status == 200)
        #expect(try json(response) == ["id": "a/b"])
    }

    @Test func twoParameters() async throws {
        let response = await route("GET", "/v1/users/7/posts/hello%20world")
        #expect(try json(response) == ["id": "7", "post": "hello world"])
    }

    @Test func unknownPathGets404Problem() async throws {
        let response = await route("GET", "/v1/nothing")
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let problem = try JSONDecoder().decode(ProblemDetails.self, from: response.body)
        #expect(problem.status == 404)
    }

    @Test func wrongMethodGets405WithAllow() async throws {
        let response = await route("PUT", "/v1/users/1")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET, DELETE, HEAD")
    }

    @Test func headFallsBackToGet() async throws {
        let response = await route("HEAD", "/v1/users/9")
        #expect(response.status == 200)
    }

    @Test func malformedPercentEncodingGets400() async throws {
        let response = await route("GET", "/v1/users/%zz")
        #expect(response.status == 400)
    }

    @Test(arguments: ["/v1/users/42/", "//v1/users/42", "/v1//users/42", "/v1/users//42", "v1/users/42/x"])
    func emptyOrExtraSegmentsDoNotMatch(_ path: String) async throws {
        let response = await route("GET", path)
        #expect(response.status == 404)
    }

    @Test func aPathWithoutItsLeadingSlashStillSplitsIntoTheSameSegments() async throws {
        let response = await route("GET", "v1/users/42")
        #expect(response.status == 200)
        #expect(try json(response) == ["id": "42"])
    }

    @Test func emptyParameterDoesNotMatch() async throws {
        let response = await route("GET", "/v1/users/")
        #expect(response.status == 404)
    }

    @Test func routerServesOverTheNetwork() async throws {
        let server = HTTPServer(configuration: .init(threadCount: 2), router: Self.makeRouter())
        try server.start()
        let port = server.port
        let found = try await exchange(port: port, "GET /v1/users/a%2Fb HTTP/1.1\r\nHost: x\r\n\r\n")
        let missing = try await exchange(port: port, "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n")
        let wrong = try await exchange(port: port, "PATCH /v1/items HTTP/1.1\r\nHost: x\r\n\r\n")
        let deleted = try await exchange(port: port, "DELETE /v1/users/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        await server.shutdown(gracePeriod: .seconds(1))
        #expect(found.status == 200)
        #expect(try JSONDecoder().decode([String: String].self, from: Data(found.body)) == ["id": "a/b"])
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "application/problem+json")
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "POST")
        #expect(deleted.status == 204)
    }

    @Test func refusalsGoThroughTheResponderAndRoutesDoNot() async throws {
        let seen = Mutex<[Router.Refusal]>([])
        var router = Self.makeRouter()
        router.add("GET", "/v1/missing") { _, _ in .problem(404, detail: "a route's own 404") }
        router.refusalResponder = { refusal, request in
            seen.withLock { $0.append(refusal) }
            return .text(299, "\(refusal.status) \(refusal.detail(method: request.method))")
        }
        let cases: [(String, String, Router.Refusal)] = [
            ("GET", "/nowhere", .notFound),
            ("PUT", "/v1/users/7", .methodNotAllowed(allowed: ["GET", "DELETE", "HEAD"])),
            ("GET", "/v1/users/%zz", .malformedPath),
        ]
        for (method, target, refusal) in cases {
            let response = await router.handle(ServerRequest(method: method, target: target))
            #expect(response.status == 299)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(text == "\(refusal.status) \(refusal.detail(method: method))")
        }
        #expect(seen.withLock { $0 } == cases.map(\.2))
        let own = await router.handle(ServerRequest(method: "GET", target: "/v1/missing"))
        #expect(own.status == 404)
        #expect(seen.withLock { $0.count } == 3, "a route's own answer went through the refusal responder")
    }

    @Test func defaultRefusalsAreProblemsWithAllowOnA405() {
        let request = ServerRequest(method: "PATCH", target: "/x")
        let refused = Router.defaultRefusal(.methodNotAllowed(allowed: ["GET", "HEAD"]), for: request)
        #expect(refused.status == 405)
        #expect(refused.headers["Allow"] == "GET, HEAD")
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(String(decoding: refused.body, as: UTF8.self).contains("does not support PATCH"))
        #expect(Router.defaultRefusal(.notFound, for: request).headers["Allow"] == nil)
        #expect(Router.Refusal.malformedPath.status == 400)
    }
}
