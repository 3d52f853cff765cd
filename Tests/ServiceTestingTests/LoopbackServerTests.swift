import CurlTransport
import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

struct LoopbackServerTests {
    @Test func servesOnLoopbackAndStopsAfterTheScope() async throws {
        let transport = CurlTransport()
        let url = try await withLoopbackServer(handler: { request in .text(200, "hello \(request.path)") }) { server in
            #expect(server.baseURL.host == "127.0.0.1")
            #expect(server.port > 0)
            let response = try await transport.send(
                HTTPRequest(method: .get, url: server.url("/world"), timeout: .seconds(5)))
            #expect(String(decoding: response.body, as: UTF8.self) == "hello /world")
            return server.url("/after")
        }
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(HTTPRequest(method: .get, url: url, timeout: .seconds(5)))
        }
        #expect(error?.code == .connectionFailed)
        await transport.shutdown()
    }

    @Test func stopsWhenTheBodyThrows() async throws {
        struct Stop: Error {}
        let transport = CurlTransport()
        var captured: URL?
        await #expect(throws: Stop.self) {
            try await withLoopbackServer(handler: { _ in .noContent }) { server in
                captured = server.baseURL
                throw Stop()
            }
        }
        let url = try #require(captured)
        await #expect(throws: TransportError.self) {
            try await transport.send(HTTPRequest(method: .get, url: url, timeout: .seconds(5)))
        }
        await transport.shutdown()
    }

    @Test func answersThroughARouter() async throws {
        var router = Router()
        router.add("GET", "/v1/users/:id") { _, parameters in .text(200, "user \(parameters["id"] ?? "?")") }
        let transport = CurlTransport()
        try await withLoopbackServer(router: router) { server in
            let response = try await transport.send(HTTPRequest(method: .get, url: server.url("v1/users/ann")))
            #expect(String(decoding: response.body, as: UTF8.self) == "user ann")
        }
        await transport.shutdown()
    }

    @Test func refusesANonLoopbackAddress() {
        let configuration = HTTPServer.Configuration(host: "0.0.0.0", port: 0)
        #expect(throws: TestServerError.self) { try LoopbackServer(configuration: configuration) { _ in .noContent } }
    }
}

struct ScriptedSocketServerTests {
    @Test func runsItsScriptOnEveryConnectionAndCountsThem() async throws {
        let transport = CurlTransport()
        let script: [ScriptedSocketServer.Step] = [
            .readRequest, .send("HTTP/1.1 202 Accepted\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"), .close,
        ]
        try await ScriptedSocketServer.withServer(script: script) { server in
            for _ in 0..<3 {
                let response = try await transport.send(
                    HTTPRequest(method: .get, url: server.baseURL, timeout: .seconds(5)))
                #expect(response.status == 202)
            }
            #expect(server.connectionCount == 3)
        }
        await transport.shutdown()
    }

    @Test func aClosedPortRefusesConnections() async throws {
        let port = try ScriptedSocketServer.closedPort()
        let transport = CurlTransport()
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/")!))
        }
        #expect(error?.code == .connectionFailed)
        await transport.shutdown()
    }
}
