import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing
import URLSessionTransport

struct URLSessionTransportTests {
    /// The conformance server, plus `/set-cookie` which sets one.
    @Sendable private static func handle(_ request: ServerRequest) async -> ServerResponse {
        if request.path == "/set-cookie" {
            return ServerResponse(status: 200, headers: ["Set-Cookie": "session=s3cret; Path=/"])
        }
        return await TransportConformance.handle(request)
    }

    private func receivedHeaders(_ response: HTTPResponse) throws -> [String: [String]] {
        struct Inspection: Decodable { var headers: [[String]] }
        let inspection = try JSONDecoder().decode(Inspection.self, from: response.body)
        var byName: [String: [String]] = [:]
        for pair in inspection.headers where pair.count == 2 {
            byName[pair[0].lowercased(), default: []].append(pair[1])
        }
        return byName
    }

    @Test func cookiesAreNeitherStoredNorSent() async throws {
        let transport = URLSessionTransport()
        defer { transport.shutdown() }
        try await withLoopbackServer(handler: Self.handle) { server in
            let set = try await transport.send(HTTPRequest(method: .get, url: server.url("/set-cookie")))
            #expect(set.headers["Set-Cookie"]?.contains("session=s3cret") == true)
            let next = try await transport.send(HTTPRequest(method: .get, url: server.url("/inspect")))
            #expect(try receivedHeaders(next)["cookie"] == nil)
        }
    }

    @Test func redirectsAreFollowedOnlyWhenConfigured() async throws {
        try await withLoopbackServer(handler: Self.handle) { server in
            let plain = URLSessionTransport()
            defer { plain.shutdown() }
            let returned = try await plain.send(HTTPRequest(method: .get, url: server.url("/status/307")))
            #expect(returned.status == 307)
            let following = URLSessionTransport(configuration: .init(followsRedirects: true))
            defer { following.shutdown() }
            let followed = try await following.send(HTTPRequest(method: .get, url: server.url("/status/307")))
            #expect(followed.status == 200)
            #expect(followed.headers["X-Echo-Target"] == "/echo/redirected")
        }
    }

    @Test func aBodyOverTheLimitFails() async throws {
        let transport = URLSessionTransport(configuration: .init(maxResponseBodySize: 1000))
        defer { transport.shutdown() }
        try await withLoopbackServer(handler: Self.handle) { server in
            let fits = try await transport.send(HTTPRequest(method: .get, url: server.url("/bytes/1000")))
            #expect(fits.body.count == 1000)
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(HTTPRequest(method: .get, url: server.url("/bytes/5000")))
            }
            #expect(error?.code == .responseTooLarge)
        }
    }

    @Test func aBodyOverTheLimitFailsWithoutALength() async throws {
        let body = String(repeating: "y", count: 50_000)
        let script: [ScriptedSocketServer.Step] = [
            .readRequest, .send("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + body), .close,
        ]
        let transport = URLSessionTransport(configuration: .init(maxResponseBodySize: 4096))
        defer { transport.shutdown() }
        try await ScriptedSocketServer.withServer(script: script) { server in
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(HTTPRequest(method: .get, url: server.baseURL, timeout: .seconds(5)))
            }
            #expect(error?.code == .responseTooLarge)
        }
    }

    @Test func theConfiguredDefaultTimeoutApplies() async throws {
        let transport = URLSessionTransport(configuration: .init(defaultTimeout: .milliseconds(200)))
        defer { transport.shutdown() }
        try await withLoopbackServer(handler: Self.handle) { server in
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(HTTPRequest(method: .get, url: server.url("/delay/3000")))
            }
            #expect(error?.code == .timedOut)
        }
    }

    @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/passwd", "/relative"])
    func rejectsURLsItCannotSend(_ text: String) async throws {
        let transport = URLSessionTransport()
        defer { transport.shutdown() }
        let url = try #require(URL(string: text))
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(HTTPRequest(method: .get, url: url))
        }
        #expect(error?.code == .invalidRequest)
    }

    @Test func rejectsHeaderInjectionWithoutEchoingTheValue() async throws {
        let transport = URLSessionTransport()
        defer { transport.shutdown() }
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(
                HTTPRequest(
                    method: .get, url: URL(string: "http://127.0.0.1:1/")!, headers: ["Authorization": "tok\r\nX: 1"])
            )
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("tok") == false)
    }

    @Test func shutdownFailsWorkInFlightAndRefusesMore() async throws {
        try await withLoopbackServer(handler: Self.handle) { server in
            let transport = URLSessionTransport()
            let slow = Task { try await transport.send(HTTPRequest(method: .get, url: server.url("/delay/3000"))) }
            try await Task.sleep(for: .milliseconds(200))
            transport.shutdown()
            let inFlight = await #expect(throws: TransportError.self) { try await slow.value }
            #expect(inFlight?.code == .shutDown)
            let later = await #expect(throws: TransportError.self) {
                try await transport.send(HTTPRequest(method: .get, url: server.url("/echo/late")))
            }
            #expect(later?.code == .shutDown)
        }
    }
}
