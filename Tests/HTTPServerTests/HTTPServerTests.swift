import Foundation
import HTTPFramingCorpus
import HTTPServer
import Testing

struct HTTPServerTests {
    @Test func getIsAnswered() async throws {
        try await withServer(handler: echoHandler) { server in
            #expect(server.port > 0)
            let response = try await exchange(port: server.port, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            let echo = try JSONDecoder().decode(EchoBody.self, from: Data(response.body))
            #expect(echo.method == "GET")
            #expect(echo.path == "/hello")
            #expect(echo.query == nil)
            #expect(echo.remote == "127.0.0.1")
        }
    }

    @Test func postBodyIsEchoed() async throws {
        try await withServer(handler: echoHandler) { server in
            let body = "{\"name\":\"swifty\"}"
            let response = try await exchange(
                port: server.port,
                "POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            #expect(response.status == 200)
            let echo = try JSONDecoder().decode(EchoBody.self, from: Data(response.body))
            #expect(echo.method == "POST")
            #expect(echo.body == body)
        }
    }

    @Test func chunkedBodyIsEchoed() async throws {
        try await withServer(handler: echoHandler) { server in
            let response = try await exchange(
                port: server.port,
                "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
            )
            #expect(response.status == 200)
            let echo = try JSONDecoder().decode(EchoBody.self, from: Data(response.body))
            #expect(echo.body == "hello world")
        }
    }

    @Test func rawTargetIsPreserved() async throws {
        try await withServer(handler: echoHandler) { server in
            let response = try await exchange(port: server.port, "GET /a%2Fb?x=%20y&z HTTP/1.1\r\nHost: x\r\n\r\n")
            let echo = try JSONDecoder().decode(EchoBody.self, from: Data(response.body))
            #expect(echo.target == "/a%2Fb?x=%20y&z")
            #expect(echo.path == "/a%2Fb")
            #expect(echo.query == "x=%20y&z")
        }
    }

    @Test func asyncHandlerAnswersAfterSleeping() async throws {
        try await withServer(handler: { _ in
            try? await Task.sleep(for: .milliseconds(100))
            return .text(200, "slept")
        }) { server in
            let response = try await exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 200)
            #expect(response.bodyText == "slept")
        }
    }

    @Test func keepAliveServesTwoRequestsOnOneConnection() async throws {
        try await withServer(handler: echoHandler) { server in
            let port = server.port
            let (first, second) = try await blocking {
                let connection = try RawConnection(port: port)
                try connection.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\n")
                let first = try connection.readResponse()
                try connection.send("GET /two HTTP/1.1\r\nHost: x\r\n\r\n")
                let second = try connection.readResponse()
                return (first, second)
            }
            #expect(first.status == 200)
            #expect(first.header("Connection")?.lowercased() != "close")
            #expect(second.status == 200)
            #expect(try JSONDecoder().decode(EchoBody.self, from: Data(second.body)).path == "/two")
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer(handler: echoHandler) { server in
            let port = server.port
            let responses = try await blocking {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "GET /p1 HTTP/1.1\r\nHost: x\r\n\r\nGET /p2 HTTP/1.1\r\nHost: x\r\n\r\nGET /p3 HTTP/1.1\r\nHost: x\r\n\r\n"
                )
                return try (0..<3).map { _ in try connection.readResponse() }
            }
            let paths = try responses.map { try JSONDecoder().decode(EchoBody.self, from: Data($0.body)).path }
            #expect(paths == ["/p1", "/p2", "/p3"])
        }
    }
}
