import CurlTransport
import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

struct CurlTransportTests {
    private func inspect(_ response: HTTPResponse) throws -> [String: [String]] {
        struct Inspection: Decodable { var headers: [[String]] }
        let inspection = try JSONDecoder().decode(Inspection.self, from: response.body)
        var byName: [String: [String]] = [:]
        for pair in inspection.headers where pair.count == 2 {
            byName[pair[0].lowercased(), default: []].append(pair[1])
        }
        return byName
    }

    private func withTransport<T>(
        _ configuration: CurlTransport.Configuration = .init(),
        _ body: (CurlTransport) async throws -> T
    ) async throws -> T {
        let transport = CurlTransport(configuration: configuration)
        do {
            let result = try await body(transport)
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    @Test func sendsOnlyTheHeadersGiven() async throws {
        try await withTransport { transport in
            try await withLoopbackServer(handler: TransportConformance.handle) { server in
                let big = Data(repeating: 7, count: 2 << 20)
                let response = try await transport.send(
                    HTTPRequest(method: .post, url: server.url("/inspect"), headers: ["X-Empty": ""], body: big)
                )
                let headers = try inspect(response)
                #expect(headers["accept"] == nil)
                #expect(headers["expect"] == nil)
                #expect(headers["content-type"] == nil)
                #expect(headers["user-agent"] == nil)
                #expect(headers["x-empty"] == [""])
                #expect(headers["content-length"] == [String(big.count)])
            }
        }
    }

    @Test func callerSetDefaultsAreSentAsGiven() async throws {
        try await withTransport(.init(userAgent: "swifty-test/1")) { transport in
            try await withLoopbackServer(handler: TransportConformance.handle) { server in
                let response = try await transport.send(
                    HTTPRequest(
                        method: .post,
                        url: server.url("/inspect"),
                        headers: ["Accept": "application/json", "Content-Type": "text/plain"],
                        body: Data("x".utf8)
                    )
                )
                let headers = try inspect(response)
                #expect(headers["accept"] == ["application/json"])
                #expect(headers["content-type"] == ["text/plain"])
                #expect(headers["user-agent"] == ["swifty-test/1"])
            }
        }
    }

    /// Names are matched without regard to case, values are sent without surrounding spaces and
    /// tabs, and a value of only blanks is an empty value.
    @Test func headerNamesAnyCaseAndValuesTrimmed() async throws {
        try await withTransport { transport in
            try await withLoopbackServer(handler: TransportConformance.handle) { server in
                let response = try await transport.send(
                    HTTPRequest(
                        method: .put,
                        url: server.url("/inspect"),
                        headers: [
                            "accept": " text/csv\t", "CONTENT-TYPE": "text/plain", "eXpect": "",
                            "X-Padded": "  a b  ", "X-Blank": " \t ",
                        ],
                        body: Data("x".utf8)
                    )
                )
                let headers = try inspect(response)
                #expect(headers["accept"] == ["text/csv"])
                #expect(headers["content-type"] == ["text/plain"])
                #expect(headers["expect"] == [""])
                #expect(headers["x-padded"] == ["a b"])
                #expect(headers["x-blank"] == [""])
            }
        }
    }

    @Test(arguments: [
        "ftp://127.0.0.1/file", "file:///etc/passwd", "/relative/path", "http:///no-host",
    ])
    func rejectsURLsItCannotSend(_ text: String) async throws {
        try await withTransport { transport in
            let url = try #require(URL(string: text))
            let error = await #expect(throws: TransportError.self) {
                try await transport.send(HTTPRequest(method: .get, url: url))
            }
            #expect(error?.code == .invalidRequest)
        }
    }

    @Test func rejectsHeaderInjectionAndBadTokens() async throws {
        try await withTransport { transport in
            let url = URL(string: "http://127.0.0.1:1/")!
            let secret = "secret-value"
            let injected = await #expect(throws: TransportError.self) {
                try await transport.send(
                    HTTPRequest(method: .get, url: url, headers: ["Authorization": "\(secret)\r\nX-Evil: 1"])
                )
            }
            #expect(injected?.code == .invalidRequest)
            #expect(injected?.message.contains(secret) == false)
            for headers: HTTPHeaders in [["Bad Name": "v"], ["Colon:Name": "v"], ["": "v"]] {
                let error = await #expect(throws: TransportError.self) {
                    try await transport.send(HTTPRequest(method: .get, url: url, headers: headers))
                }
                #expect(error?.code == .invalidRequest)
            }
            let method = await #expect(throws: TransportError.self) {
                try await transport.send(HTTPRequest(method: HTTPMethod(rawValue: "GET /x HTTP/1.1\r\n"), url: url))
            }
            #expect(method?.code == .invalidRequest)
        }
    }

    @Test func aBodyOverTheLimitFailsWithAKnownLength() async throws {
        try await withTransport(.init(maxResponseBodySize: 1000)) { transport in
            try await withLoopbackServer(handler: TransportConformance.handle) { server in
                let fits = try await transport.send(HTTPRequest(method: .get, url: server.url("/bytes/1000")))
                #expect(fits.body.count == 1000)
                let error = await #expect(throws: TransportError.self) {
                    try await transport.send(HTTPRequest(method: .get, url: server.url("/bytes/1001")))
                }
                #expect(error?.code == .responseTooLarge)
                #expect(error?.message.contains("1000 bytes") == true)
            }
        }
    }

    @Test func aBodyOverTheLimitFailsWithoutALength() async throws {
        let body = String(repeating: "x", count: 5000)
        let script: [ScriptedSocketServer.Step] = [
            .readRequest, .send("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + body), .close,
        ]
        try await withTransport(.init(maxResponseBodySize: 4096)) { transport in
            try await ScriptedSocketServer.withServer(script: script) { server in
                let error = await #expect(throws: TransportError.self) {
                    try await transport.send(HTTPRequest(method: .get, url: server.baseURL, timeout: .seconds(5)))
                }
                #expect(error?.code == .responseTooLarge)
            }
        }
    }

    @Test func redirectsAreFollowedOnlyWhenConfigured() async throws {
        try await withLoopbackServer(handler: TransportConformance.handle) { server in
            try await withTransport { transport in
                let response = try await transport.send(HTTPRequest(method: .get, url: server.url("/status/302")))
                #expect(response.status == 302)
                #expect(response.headers["Location"] == "/echo/redirected")
            }
            try await withTransport(.init(redirects: .follow(maxCount: 3))) { transport in
                let response = try await transport.send(HTTPRequest(method: .get, url: server.url("/status/302")))
                #expect(response.status == 200)
                #expect(response.headers["X-Echo-Target"] == "/echo/redirected")
                #expect(response.headers["Location"] == nil)
            }
        }
    }

    @Test func theConfiguredDefaultTimeoutApplies() async throws {
        try await withTransport(.init(defaultTimeout: .milliseconds(200))) { transport in
            try await withLoopbackServer(handler: TransportConformance.handle) { server in
                let error = await #expect(throws: TransportError.self) {
                    try await transport.send(HTTPRequest(method: .get, url: server.url("/delay/3000")))
                }
                #expect(error?.code == .timedOut)
            }
        }
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        var script: [ScriptedSocketServer.Step] = []
        for index in 0..<10 {
            script += [
                .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: \(String(index).count)\r\n\r\n\(index)"),
            ]
        }
        try await withTransport { transport in
            try await ScriptedSocketServer.withServer(script: script) { server in
                for index in 0..<10 {
                    let response = try await transport.send(
                        HTTPRequest(
                            method: .get, url: server.baseURL.appendingPathComponent("r\(index)"), timeout: .seconds(5))
                    )
                    #expect(String(decoding: response.body, as: UTF8.self) == String(index))
                }
                #expect(server.connectionCount == 1)
            }
        }
    }

    @Test func aKeepAliveConnectionTheServerClosedIsReplaced() async throws {
        let script: [ScriptedSocketServer.Step] = [
            .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"), .pause(.milliseconds(20)), .close,
        ]
        try await withTransport { transport in
            try await ScriptedSocketServer.withServer(script: script) { server in
                for index in 0..<3 {
                    let body = Data("body \(index)".utf8)
                    let request = HTTPRequest(method: .post, url: server.baseURL, body: body, timeout: .seconds(5))
                    let response = try await transport.send(request)
                    #expect(response.body == Data("ok".utf8))
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(server.connectionCount == 3)
            }
        }
    }

    @Test func foldedAndLatin1ResponseHeadersAreKept() async throws {
        var head = Data("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Folded: first\r\n  second\r\nX-Latin: caf".utf8)
        head.append(0xE9)
        head.append(Data("\r\nX-Twice: a\r\nX-Twice: b\r\n\r\n".utf8))
        try await withTransport { transport in
            try await ScriptedSocketServer.withServer(script: [.readRequest, .write(head), .close]) { server in
                let response = try await transport.send(
                    HTTPRequest(method: .get, url: server.baseURL, timeout: .seconds(5)))
                #expect(response.headers["X-Folded"] == "first second")
                #expect(response.headers["X-Latin"] == "café")
                #expect(response.headers.values(for: "x-twice") == ["a", "b"])
            }
        }
    }

    @Test func manyCancellationsEachEndTheirRequestOnce() async throws {
        try await withTransport { transport in
            try await withLoopbackServer(handler: TransportConformance.handle) { server in
                // The longest delay the server allows: the cancels must land before any answer, even
                // when a loaded machine stalls this loop for seconds.
                let url = server.url("/delay/10000")
                let tasks = (0..<60).map { _ in
                    Task { try await transport.send(HTTPRequest(method: .get, url: url, timeout: .seconds(20))) }
                }
                let clock = ContinuousClock()
                let start = clock.now
                for (index, task) in tasks.enumerated() {
                    if index % 3 == 0 { try await Task.sleep(for: .milliseconds(5)) }
                    task.cancel()
                }
                let cancelling = clock.now - start
                for task in tasks {
                    let error = await #expect(
                        throws: TransportError.self, "all cancels were issued within \(cancelling)"
                    ) { try await task.value }
                    #expect(error?.code == .cancelled)
                }
                let after = try await transport.send(HTTPRequest(method: .get, url: server.url("/echo/after")))
                #expect(after.status == 200)
            }
        }
    }
}

struct CurlTransportLifecycleTests {
    /// Whether a thread of this process has this name.
    private func threadExists(named name: String) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.contains { task in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }
    }

    /// Waits (at most 2 s) until the thread exists or not, and returns whether it exists.
    private func waitForThread(named name: String, toExist exists: Bool) async throws -> Bool {
        for _ in 0..<200 where threadExists(named: name) != exists { try await Task.sleep(for: .milliseconds(10)) }
        return threadExists(named: name)
    }

    @Test func shutdownFailsWorkInFlightEndsTheThreadAndRefusesMore() async throws {
        try await withLoopbackServer(handler: TransportConformance.handle) { server in
            let transport = CurlTransport()
            let name = transport.threadName
            #expect(try await waitForThread(named: name, toExist: true))
            let slow = Task { try await transport.send(HTTPRequest(method: .get, url: server.url("/delay/3000"))) }
            try await Task.sleep(for: .milliseconds(200))
            await transport.shutdown()
            let inFlight = await #expect(throws: TransportError.self) { try await slow.value }
            #expect(inFlight?.code == .shutDown)
            let later = await #expect(throws: TransportError.self) {
                try await transport.send(HTTPRequest(method: .get, url: server.url("/echo/late")))
            }
            #expect(later?.code == .shutDown)
            await transport.shutdown()
            #expect(try await waitForThread(named: name, toExist: false) == false)
        }
    }

    @Test func aGracePeriodLetsWorkInFlightFinish() async throws {
        try await withLoopbackServer(handler: TransportConformance.handle) { server in
            let transport = CurlTransport()
            let slow = Task { try await transport.send(HTTPRequest(method: .get, url: server.url("/delay/300"))) }
            try await Task.sleep(for: .milliseconds(100))
            await transport.shutdown(gracePeriod: .seconds(5))
            #expect(try await slow.value.body == Data("late".utf8))
        }
    }

    @Test func droppingATransportEndsItsThread() async throws {
        try await withLoopbackServer(handler: TransportConformance.handle) { server in
            var names: [String] = []
            for index in 0..<10 {
                let transport = CurlTransport()
                names.append(transport.threadName)
                let response = try await transport.send(HTTPRequest(method: .get, url: server.url("/echo/\(index)")))
                #expect(response.status == 200)
            }
            for name in names {
                #expect(try await waitForThread(named: name, toExist: false) == false)
            }
        }
    }
}
