import Foundation
import HTTPFramingCorpus
import HTTPServer
import Testing

/// ``HTTPServer/ServerResponse/resetConnection``: the handler's request gets no answer at all,
/// the client sees a TCP reset, and the server goes on serving.
struct ConnectionResetTests {
    @Sendable static func handler(_ request: ServerRequest) async -> ServerResponse {
        request.path == "/reset" ? .resetConnection : .text(200, "served")
    }

    @Test func aResetAnswersNothingAndTheClientSeesAReset() async throws {
        try await withServer(handler: Self.handler) { server in
            let port = server.port
            let outcome = try await blocking { () -> String in
                let connection = try RawConnection(port: port)
                try connection.send("GET /reset HTTP/1.1\r\nHost: x\r\n\r\n")
                do {
                    let response = try connection.readResponse()
                    return "answered \(response.status)"
                } catch {
                    return "\(error)"
                }
            }
            #expect(outcome.contains("reset by peer"), "got: \(outcome)")
        }
    }

    @Test func aResetDropsPipelinedRequestsAndTheServerGoesOn() async throws {
        try await withServer(handler: Self.handler) { server in
            let port = server.port
            let (first, second) = try await blocking { () -> (Int?, Bool) in
                let connection = try RawConnection(port: port)
                try connection.send(
                    "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /reset HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"
                )
                let first = try? connection.readResponse()
                let second = (try? connection.readResponse()) == nil
                return (first?.status, second)
            }
            #expect(first == 200, "the request before the reset is answered")
            #expect(second, "nothing is answered after the reset")
            let after = try await exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(after.status == 200)
            #expect(after.bodyText == "served")
            #expect(server.inFlightCount == 0)
        }
    }
}
