import CurlTransport
import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

/// Request header lists of every size reach the server exactly, and response fields decode as
/// ASCII, UTF-8 or ISO 8859-1.
struct CurlHeaderHandlingTests {
    @Test func manyAndLongRequestHeadersArriveExactly() async throws {
        let transport = CurlTransport(configuration: .init(maxIdleHandles: 1, usesCallerEventLoop: false))
        // Answers with the X- fields it received, one "name: value" line each.
        let handler: @Sendable (ServerRequest) async -> ServerResponse = { request in
            let lines = request.headers.filter { $0.name.lowercased().hasPrefix("x-") }.map {
                "\($0.name): \($0.value)\n"
            }
            return ServerResponse(status: 200, body: Data(lines.joined().utf8))
        }
        // The head is about 8.6 KiB: over the server's default header limit, so it is raised.
        var configuration = LoopbackServer.testConfiguration
        configuration.maxHeaderBytes = 16 << 10
        configuration.connectionMemoryLimit = HTTPServer.Configuration.connectionMemory(forHeaderBytes: 16 << 10)
        do {
            try await withLoopbackServer(configuration: configuration, handler: handler) { server in
                var sent: [(String, String)] = (0..<40).map { ("X-Field-\($0)", "value \($0)") }
                sent.append(("X-Long", String(repeating: "abcdefgh", count: 1000)))
                sent.append(("X-Empty", ""))
                sent.append(("X-Spaces", " \t inner  value \t "))
                for round in 0..<3 {
                    let response = try await transport.send(
                        HTTPRequest(
                            method: round == 1 ? .post : .get, url: server.url("/headers"),
                            headers: HTTPHeaders(sent), timeout: .seconds(5))
                    )
                    #expect(response.status == 200)
                    let expected = sent.map { name, value in
                        "\(name): \(value.trimmingCharacters(in: CharacterSet(charactersIn: " \t")))\n"
                    }
                    #expect(String(decoding: response.body, as: UTF8.self) == expected.joined())
                }
            }
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }

    @Test func responseFieldsDecodeAsASCIIUTF8OrLatin1() async throws {
        var head = Data("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nX-Ascii:   plain value  \r\nX-Utf8: na".utf8)
        head.append(contentsOf: [0xC3, 0xAF])  // ï in UTF-8
        head.append(Data("ve\r\nX-Latin: na".utf8))
        head.append(0xEF)  // ï in ISO 8859-1, not valid UTF-8
        head.append(Data("ve\r\nX-Long: \(String(repeating: "0123456789", count: 30))\r\n\r\nok".utf8))
        let transport = CurlTransport(configuration: .init(usesCallerEventLoop: false))
        do {
            try await ScriptedSocketServer.withServer(script: [.readRequest, .write(head), .close]) { server in
                let response = try await transport.send(
                    HTTPRequest(method: .get, url: server.baseURL, timeout: .seconds(5))
                )
                #expect(response.body == Data("ok".utf8))
                #expect(response.headers["Content-Length"] == "2")
                #expect(response.headers["X-Ascii"] == "plain value")
                #expect(response.headers["X-Utf8"] == "naïve")
                #expect(response.headers["X-Latin"] == "naïve")
                #expect(response.headers["X-Long"] == String(repeating: "0123456789", count: 30))
            }
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }
}
