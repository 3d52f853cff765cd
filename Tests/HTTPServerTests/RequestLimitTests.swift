import Foundation
import HTTPFramingCorpus
import HTTPServer
import HTTPTypes
import Testing

struct RequestLimitTests {
    static let small = HTTPServer.Configuration(
        threadCount: 2, maxBodyBytes: 64, maxHeaderBytes: 1024, maxHeaderCount: 20)

    private func problem(_ response: RawConnection.Response) throws -> ProblemDetails {
        #expect(response.header("Content-Type") == "application/problem+json")
        return try JSONDecoder().decode(ProblemDetails.self, from: Data(response.body))
    }

    @Test func contentLengthOverLimitGets413() async throws {
        try await withServer(Self.small, handler: echoHandler) { server in
            let response = try await exchange(
                port: server.port,
                "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 65\r\n\r\n" + String(repeating: "a", count: 65)
            )
            #expect(response.status == 413)
            #expect(try problem(response).status == 413)
        }
    }

    @Test func bodyAtLimitIsAccepted() async throws {
        try await withServer(Self.small, handler: echoHandler) { server in
            let response = try await exchange(
                port: server.port,
                "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 64\r\n\r\n" + String(repeating: "a", count: 64)
            )
            #expect(response.status == 200)
        }
    }

    @Test func chunkedBodyOverLimitGets413() async throws {
        try await withServer(Self.small, handler: echoHandler) { server in
            let chunk = String(repeating: "b", count: 40)
            let response = try await exchange(
                port: server.port,
                "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n28\r\n\(chunk)\r\n28\r\n\(chunk)\r\n0\r\n\r\n"
            )
            #expect(response.status == 413)
            #expect(try problem(response).status == 413)
        }
    }

    @Test func tooManyHeaderBytesGets431() async throws {
        try await withServer(Self.small, handler: echoHandler) { server in
            let big = String(repeating: "v", count: 2000)
            let response = try await exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n")
            #expect(response.status == 431)
            #expect(try problem(response).status == 431)
        }
    }

    /// The per-connection memory for a header limit (the default, or `connectionMemory(forHeaderBytes:)`
    /// for a given one) holds a head as large as that limit, with as many fields as allowed.
    @Test(arguments: [nil, 20_000, 65_536])
    func headJustUnderTheLimitIsServed(limit: Int?) async throws {
        var configuration = HTTPServer.Configuration(threadCount: 2)
        if let limit {
            configuration.maxHeaderBytes = limit
            configuration.connectionMemoryLimit = HTTPServer.Configuration.connectionMemory(forHeaderBytes: limit)
        }
        let fields = (0..<(configuration.maxHeaderCount - 2)).map { "X-F\($0): 1\r\n" }.joined()
        let padding = String(repeating: "p", count: configuration.maxHeaderBytes - fields.utf8.count - 200)
        let head = "GET / HTTP/1.1\r\nHost: x\r\n\(fields)X-Pad: \(padding)\r\n\r\n"
        try await withServer(configuration, handler: echoHandler) { server in
            let response = try await exchange(port: server.port, head)
            #expect(response.status == 200)
        }
        let over = head.replacingOccurrences(of: "X-Pad: ", with: "X-Pad: " + String(repeating: "q", count: 400))
        try await withServer(configuration, handler: echoHandler) { server in
            let response = try await exchange(port: server.port, over)
            #expect(response.status == 431)
            #expect(response.header("Content-Type") == "application/problem+json")
        }
    }

    @Test func tooManyHeaderFieldsGets431() async throws {
        try await withServer(Self.small, handler: echoHandler) { server in
            let fields = (0..<30).map { "X-F\($0): 1\r\n" }.joined()
            let response = try await exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\(fields)\r\n")
            #expect(response.status == 431)
        }
    }

    @Test func headLargerThanConnectionMemoryIsRejectedCleanly() async throws {
        let configuration = HTTPServer.Configuration(threadCount: 2, connectionMemoryLimit: 8192)
        let calls = CallCounter()
        try await withServer(
            configuration,
            handler: { request in
                calls.increment()
                return await echoHandler(request)
            }
        ) { server in
            let port = server.port
            let big = String(repeating: "h", count: 20_000)
            let outcome = try await blocking { () -> Int? in
                let connection = try RawConnection(port: port)
                try? connection.send("GET / HTTP/1.1\r\nHost: x\r\nX-Huge: \(big)\r\n\r\n")
                let response = try? connection.readResponse()
                return response?.status
            }
            // The head is over the header limit: one 431, read in full thanks to the lingering
            // close. Never a handler call.
            #expect(outcome == 431)
            #expect(calls.value == 0)
            let after = try await exchange(port: port, "GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(after.status == 200)
            #expect(calls.value == 1)
        }
    }
}
