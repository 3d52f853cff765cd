import CurlTransport
import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

/// Easy handles are kept with their options between transfers: each transfer must still send
/// exactly its own method, body and headers, and a failure must leave nothing behind.
struct CurlHandleReuseTests {
    /// One handle in the pool, on the transport's own thread, so every transfer reuses it.
    private static let configuration = CurlTransport.Configuration(
        maxResponseBodySize: 1000,
        maxIdleHandles: 1,
        usesCallerEventLoop: false
    )

    /// Answers with what it received: the method in `X-Method`, the body (echoed, and its length
    /// in `X-Length`), and every header field as `X-Got-<name>`. `/slow` waits 2 s first, `/big`
    /// answers 2000 bytes.
    @Sendable private static func mirror(_ request: ServerRequest) async -> ServerResponse {
        if request.path == "/slow" { try? await Task.sleep(for: .seconds(2)) }
        if request.path == "/big" { return ServerResponse(status: 200, body: Data(repeating: 1, count: 2000)) }
        var headers: ServerHeaders = ["X-Method": request.method, "X-Length": String(request.body.count)]
        for field in request.headers { headers.add(name: "X-Got-" + field.name, value: field.value) }
        return ServerResponse(status: 200, headers: headers, body: request.body)
    }

    private struct Step: CustomStringConvertible {
        var method: HTTPMethod
        var body: Data?

        /// Whether the transport sends a body (and a `Content-Length`) for this step.
        var sendsBody: Bool { body != nil || [.post, .put, .patch].contains(method) }
        var description: String { "\(method) with \(body.map { "\($0.count) bytes" } ?? "no body")" }
    }

    private static let steps: [Step] = [
        Step(method: .head), Step(method: .get), Step(method: .post, body: Data("first body".utf8)),
        Step(method: .get), Step(method: .delete), Step(method: .put, body: Data((0...255).map { UInt8($0) })),
        Step(method: .get), Step(method: .patch), Step(method: .options), Step(method: .head),
        Step(method: .post, body: Data()), Step(method: .delete, body: Data("delete body".utf8)),
        Step(method: .head), Step(method: HTTPMethod(rawValue: "PURGE")), Step(method: .get),
        Step(method: .put, body: Data("x".utf8)), Step(method: .options, body: Data("options body".utf8)),
        Step(method: .get),
    ]

    private func withTransport(_ body: (CurlTransport) async throws -> Void) async throws {
        let transport = CurlTransport(configuration: Self.configuration)
        do {
            try await body(transport)
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }

    /// Sends `step` with a header naming its index, and checks what the server received.
    private func send(
        _ step: Step,
        index: Int,
        to server: LoopbackServer,
        with transport: CurlTransport
    ) async throws {
        let response = try await transport.send(
            HTTPRequest(
                method: step.method,
                url: server.url("/mirror/\(index)"),
                headers: ["X-Step-\(index)": "step \(index)"],
                body: step.body,
                timeout: .seconds(5)
            )
        )
        let sent = step.body ?? Data()
        #expect(response.status == 200, "\(step)")
        #expect(response.headers["X-Method"] == step.method.rawValue, "\(step)")
        #expect(response.headers["X-Length"] == String(sent.count), "\(step)")
        #expect(response.body == (step.method == .head ? Data() : sent), "\(step)")
        let got = response.headers.fields.filter { $0.name.lowercased().hasPrefix("x-got-") }
        let stepHeaders = got.filter { $0.name.lowercased().hasPrefix("x-got-x-step-") }
        #expect(stepHeaders.map(\.name).map { $0.lowercased() } == ["x-got-x-step-\(index)"], "\(step)")
        #expect(stepHeaders.map(\.value) == ["step \(index)"], "\(step)")
        let contentLength = response.headers.values(for: "X-Got-Content-Length")
        #expect(contentLength == (step.sendsBody ? [String(sent.count)] : []), "\(step)")
        for name in ["Accept", "Expect", "Content-Type", "Transfer-Encoding"] {
            #expect(response.headers["X-Got-" + name] == nil, "\(step): \(name)")
        }
    }

    @Test func mixedMethodsOnOneReusedHandleSendEachRequestAsGiven() async throws {
        try await withTransport { transport in
            try await withLoopbackServer(handler: Self.mirror) { server in
                for (index, step) in Self.steps.enumerated() {
                    try await send(step, index: index, to: server, with: transport)
                }
                // And the same sequence backwards, so each method also follows the others.
                for (index, step) in Self.steps.reversed().enumerated() {
                    try await send(step, index: 100 + index, to: server, with: transport)
                }
            }
        }
    }

    @Test func aFailedTransferLeavesNothingForTheNext() async throws {
        let closedPort = try ScriptedSocketServer.closedPort()
        let refusedURL = try #require(URL(string: "http://127.0.0.1:\(closedPort)/refused"))
        try await withTransport { transport in
            try await withLoopbackServer(handler: Self.mirror) { server in
                let post = Step(method: .post, body: Data("after a failure".utf8))
                let timedOut = await #expect(throws: TransportError.self) {
                    try await transport.send(
                        HTTPRequest(
                            method: .put, url: server.url("/slow"), headers: ["X-Stale": "1"],
                            body: Data("slow".utf8), timeout: .milliseconds(200))
                    )
                }
                #expect(timedOut?.code == .timedOut)
                #expect(timedOut?.message.lowercased().contains("timed out") == true)
                try await send(Step(method: .get), index: 1, to: server, with: transport)

                let refused = await #expect(throws: TransportError.self) {
                    try await transport.send(HTTPRequest(method: .get, url: refusedURL, timeout: .seconds(5)))
                }
                #expect(refused?.code == .connectionFailed)
                // The message is this failure's own, not the timeout's left in the error buffer.
                #expect(refused?.message.lowercased().contains("timed out") == false)
                #expect(refused?.message.contains("/refused") == true)
                try await send(post, index: 2, to: server, with: transport)

                let tooLarge = await #expect(throws: TransportError.self) {
                    try await transport.send(HTTPRequest(method: .get, url: server.url("/big"), timeout: .seconds(5)))
                }
                #expect(tooLarge?.code == .responseTooLarge)
                try await send(Step(method: .head), index: 3, to: server, with: transport)
                try await send(Step(method: .get), index: 4, to: server, with: transport)

                let headers = try await transport.send(
                    HTTPRequest(method: .get, url: server.url("/after"), timeout: .seconds(5))
                )
                #expect(headers.headers["X-Got-X-Stale"] == nil)
                #expect(headers.headers["X-Method"] == "GET")
            }
        }
    }

    /// The token check the transport applies to methods and header names matches RFC 9110's
    /// `tchar` for every byte, alone and inside a name.
    @Test func theTokenCheckMatchesTheDefinition() {
        let tchars = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for value in 0...255 {
            let byte = UInt8(value)
            #expect(HTTPToken.isTokenCharacter(byte) == tchars.contains(byte), "byte \(value)")
            let bytes = [UInt8(ascii: "X"), byte, UInt8(ascii: "y")]
            let viaBuffer = bytes.withUnsafeBufferPointer { HTTPToken.isToken($0) }
            #expect(viaBuffer == tchars.contains(byte), "byte \(value)")
            if let text = String(validating: bytes, as: UTF8.self) {
                #expect(HTTPToken.isToken(text) == tchars.contains(byte), "byte \(value)")
                #expect(HTTPToken.isToken(text[...]) == tchars.contains(byte), "byte \(value)")
            }
        }
        #expect(!HTTPToken.isToken(""))
        #expect(!HTTPToken.isToken("café"))
        #expect(HTTPToken.isToken(String(repeating: "Long-Header-Name_", count: 8)))
    }
}
