import AppLogging
import CurlTransport
import EventLoops
import Foundation
import HTTP1Transport
import HTTPServer
import HTTPTypes
import ServiceCore
import ServiceTesting
import Synchronization
import Testing

/// The fast path's own behaviour: where requests go, keep-alive, a reused connection the peer
/// closed (failed, left to the retry policy), bodies framed every way HTTP/1.1 allows, limits and shutdown.
struct HTTP1TransportTests {
    /// Runs `body` on the thread of a loop of its own (so no other test's work delays it) with a
    /// transport built with that loop, whose fallback records its requests.
    private func onLoop<T: Sendable>(
        _ configuration: HTTP1Transport.Configuration = .init(),
        _ body: @escaping @Sendable (HTTP1Transport, RecordingTransport) async throws -> T
    ) async throws -> T {
        let loops = try EventLoopGroup(loopCount: 1, name: "http1-test")
        let curl = CurlTransport(eventLoops: loops)
        let fallback = RecordingTransport(wrapping: curl)
        let transport = HTTP1Transport(configuration: configuration, eventLoops: loops, fallback: fallback)
        do {
            let result = try await EventLoopHost.run(on: loops.loops[0]) { try await body(transport, fallback) }
            await transport.shutdown()
            await curl.shutdown()
            await loops.shutdown()
            return result
        } catch {
            await transport.shutdown()
            await curl.shutdown()
            await loops.shutdown()
            throw error
        }
    }

    private static func get(_ url: URL, timeout: Duration = .seconds(10)) -> HTTPRequest {
        HTTPRequest(method: .get, url: url, timeout: timeout)
    }

    @Test func requestsFromTheLoopUseTheFastPathAndOneKeptAliveConnection() async throws {
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        let script: [ScriptedSocketServer.Step] = Array(
            repeating: [ScriptedSocketServer.Step.readRequest, .send(answer)], count: 3
        ).flatMap { $0 }
        try await ScriptedSocketServer.withServer(script: script) { server in
            let url = server.baseURL.appendingPathComponent("kept")
            let (bodies, fallbackCount, loops) = try await onLoop { transport, fallback in
                var bodies: [String] = []
                for _ in 0..<3 {
                    let response = try await transport.send(Self.get(url))
                    bodies.append(String(decoding: response.body, as: UTF8.self))
                    #expect(transport.eventLoops.loopOfCaller != nil)
                }
                return (bodies, fallback.requests.count, transport.eventLoopCount)
            }
            #expect(bodies == ["ok", "ok", "ok"])
            #expect(fallbackCount == 0)
            #expect(loops == 1)
            #expect(server.connectionCount == 1)
        }
    }

    @Test func everythingElseGoesToTheFallback() async throws {
        try await withLoopbackServer(handler: TransportConformance.handle) { server in
            // The fallback answers 299 itself, so where each request went shows in its status.
            let fallback = RecordingTransport(wrapping: MockTransport(fallback: .status(299)))
            let log = InMemoryLogHandler()
            let transport = HTTP1Transport(
                eventLoops: EventLoopHost.loops, fallback: fallback, logger: Logger(label: "test", handler: log))
            let local = server.url("/status/204")
            let localhost = URL(string: "http://localhost:\(server.port)/status/204")!
            // Off its event loops, even a numeric URL is the fallback's.
            #expect(try await transport.send(Self.get(local)).status == 299)
            #expect(try await transport.send(Self.get(local)).status == 299)
            let statuses = try await EventLoopHost.run {
                [
                    try await transport.send(Self.get(local)).status,
                    try await transport.send(Self.get(localhost)).status,
                    // https needs TLS; user information is left to a general client.
                    try await transport.send(Self.get(URL(string: "https://127.0.0.1:1/status/204")!)).status,
                    try await transport.send(Self.get(URL(string: "http://u:p@127.0.0.1:1/status/204")!)).status,
                ]
            }
            #expect(statuses == [204, 204, 299, 299])
            #expect(fallback.requests.count == 4)
            // Counted by reason, and the first of each reason logged once.
            #expect(transport.fallbackCounts == [.offLoop: 2, .https: 1, .userInfo: 1, .otherURL: 0])
            let reasons = log.records.compactMap { $0.metadata["reason"].map { "\($0)" } }
            #expect(reasons == ["off_loop", "https", "user_info"])
            await transport.shutdown()
        }
    }

    @Test func aLoopOfAnotherGroupAndTheSettingOffBothSendToTheFallback() async throws {
        try await withLoopbackServer(handler: TransportConformance.handle) { server in
            let fallback = RecordingTransport(wrapping: MockTransport(fallback: .status(299)))
            let other = try EventLoopGroup(loopCount: 1, name: "other")
            let onLoops = HTTP1Transport(eventLoops: EventLoopHost.loops, fallback: fallback)
            let settingOff = HTTP1Transport(
                configuration: .init(usesCallerEventLoop: false), eventLoops: EventLoopHost.loops, fallback: fallback)
            let local = server.url("/status/204")
            // A loop, but not one the transport was given: not the caller's loop to it.
            let fromOther = try await EventLoopHost.run(on: other.loops[0]) {
                try await onLoops.send(Self.get(local)).status
            }
            let fromOwn = try await EventLoopHost.run { try await settingOff.send(Self.get(local)).status }
            #expect(fromOther == 299)
            #expect(fromOwn == 299)
            #expect(onLoops.fallbackCounts[.offLoop] == 1)
            #expect(settingOff.fallbackCounts[.offLoop] == 1)
            #expect(onLoops.eventLoopCount == 0 && settingOff.eventLoopCount == 0)
            await onLoops.shutdown()
            await settingOff.shutdown()
            await other.shutdown()
        }
    }

    @Test(arguments: [
        ("https://api.example.com/v1", HTTP1Transport.FallbackReason.https),
        ("HTTPS://api.example.com/v1", .https),
        ("http://user:secret@127.0.0.1:8080/", .userInfo),
        ("http://%31%32%37.0.0.1/", .otherURL),
        ("ftp://example.com/", .otherURL),
    ])
    func aRefusedURLIsCountedUnderItsReason(_ url: String, _ reason: HTTP1Transport.FallbackReason) async throws {
        let fallback = RecordingTransport(wrapping: MockTransport(fallback: .status(299)))
        let transport = HTTP1Transport(eventLoops: EventLoopHost.loops, fallback: fallback)
        let status = try await EventLoopHost.run {
            try await transport.send(HTTPRequest(method: .get, url: URL(string: url)!, timeout: .seconds(5))).status
        }
        #expect(status == 299)
        #expect(transport.fallbackCounts[reason] == 1)
        #expect(transport.fallbackCounts.values.reduce(0, +) == 1)
        await transport.shutdown()
    }

    /// Maps names to addresses and counts the lookups.
    final class FixedResolver: HTTP1Resolver {
        let names: [String: String]
        private let lookups = Mutex<[String]>([])

        init(_ names: [String: String]) { self.names = names }

        var looked: [String] { lookups.withLock { $0 } }

        func address(for host: String) throws -> String {
            lookups.withLock { $0.append(host) }
            guard let address = names[host] else { throw TransportError(.connectionFailed, "no such name '\(host)'") }
            return address
        }
    }

    @Test func hostNamesAreResolvedOffTheLoopOncePerLifetime() async throws {
        try await withLoopbackServer(handler: TransportConformance.handle) { server in
            let resolver = FixedResolver(["users.internal": "127.0.0.1"])
            let fallback = RecordingTransport(wrapping: MockTransport(fallback: .status(299)))
            let transport = HTTP1Transport(eventLoops: EventLoopHost.loops, resolver: resolver, fallback: fallback)
            let named = URL(string: "http://users.internal:\(server.port)/status/204")!
            let unknown = URL(string: "http://nowhere.internal:\(server.port)/status/204")!
            let (statuses, failure) = try await EventLoopHost.run { () -> ([Int], TransportError?) in
                // Four at once: they wait for one lookup, then open their connections.
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<4 { group.addTask { try await transport.send(Self.get(named)).status } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                // And again, from the kept address.
                let again = try await transport.send(Self.get(named)).status
                do {
                    _ = try await transport.send(Self.get(unknown))
                    return (statuses + [again], nil)
                } catch let error as TransportError {
                    return (statuses + [again], error)
                }
            }
            #expect(statuses == [204, 204, 204, 204, 204])
            #expect(resolver.looked == ["users.internal", "nowhere.internal"])
            #expect(failure?.code == .connectionFailed)
            #expect(failure?.message.contains("nowhere.internal") == true)
            #expect(fallback.requests.count == 0)
            await transport.shutdown()
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/v1/users/bob?x=1", true),
        ("HTTP://127.0.0.1/", true),
        ("http://localhost:9/a", true),
        ("http://[::1]:8080/a", true),
        ("http://users.internal:8080/a", true),
        ("http://users-v2.svc_local/a", true),
        ("https://127.0.0.1:8443/a", false),
        ("http://user:secret@127.0.0.1:8080/a", false),
        ("http://us%65rs.internal/a", false),
        ("http://127.0.0.1:0/a", false),
        ("http://127.0.0.1:99999/a", false),
        ("http://127.0.0.1:80x/a", false),
        ("http://[::1/a", false),
        ("ftp://127.0.0.1/a", false),
    ])
    func takesPlainHTTPURLsOnly(_ text: String, _ taken: Bool) {
        // As the client hands it over: the text as built, not parsed again.
        let request = HTTPRequest(method: .get, checkedURLString: text, headers: [:], body: nil, timeout: nil)
        #expect(HTTP1Transport.takesOnEventLoop(request) == taken, "\(text)")
    }

    @Test func aConnectionIdleTooLongIsNotReused() async throws {
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        // The server keeps each connection open afterwards without reading: a request sent on the
        // first one again would never be answered.
        let script: [ScriptedSocketServer.Step] = [
            .readRequest, .send(answer), .readRequest, .send(answer), .pause(.seconds(8)),
        ]
        try await ScriptedSocketServer.withServer(script: script) { server in
            let url = server.baseURL.appendingPathComponent("idle")
            let statuses = try await onLoop(.init(maxIdleTime: .milliseconds(50))) { transport, _ in
                let first = try await transport.send(Self.get(url)).status
                let soon = try await transport.send(Self.get(url)).status  // reused: 1 connection
                try await Task.sleep(for: .milliseconds(300))
                let clock = ContinuousClock()
                let start = clock.now
                let late = try await transport.send(Self.get(url)).status  // too old: a new one
                // On the old connection it would have waited out the server's pause.
                #expect(clock.now - start < .seconds(3))
                return [first, soon, late]
            }
            #expect(statuses == [200, 200, 200])
            #expect(server.connectionCount == 2)
        }
    }

    @Test func aReusedConnectionThePeerClosedFailsAndIsNotSentAgain() async throws {
        // Each connection answers one request, then reads the next and closes without a word:
        // the second request finds its kept-alive connection dead. The transport does not send
        // it again (only the caller's retry policy knows whether it may be).
        let script: [ScriptedSocketServer.Step] = [
            .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst"), .readRequest, .close,
        ]
        try await ScriptedSocketServer.withServer(script: script) { server in
            let url = server.baseURL.appendingPathComponent("reused")
            let (first, failure) = try await onLoop { transport, _ -> (Int, TransportError?) in
                let first = try await transport.send(Self.get(url)).status
                do {
                    _ = try await transport.send(Self.get(url))
                    return (first, nil)
                } catch let error as TransportError {
                    return (first, error)
                }
            }
            #expect(first == 200)
            #expect(failure?.code == .connectionClosed)
            #expect(failure?.message.contains("reused connection was closed by the peer before any byte") == true)
            #expect(server.connectionCount == 1)
        }
    }

    @Test(arguments: [
        (RequestPolicy.RetryClass.idempotent, false, true),
        (.requiresIdempotencyKey, true, true),
        (.requiresIdempotencyKey, false, false),
        (.never, false, false),
    ])
    func theRetryPolicyResendsWhatItsClassAllowsOnAFreshConnection(
        _ retryClass: RequestPolicy.RetryClass, _ withKey: Bool, _ resent: Bool
    ) async throws {
        let script: [ScriptedSocketServer.Step] = [
            .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"), .readRequest, .close,
        ]
        try await ScriptedSocketServer.withServer(script: script) { server in
            let url = server.baseURL.appendingPathComponent("charges")
            let retry = RetryMiddleware(settings: RetrySettings(baseDelay: .milliseconds(1)))
            let context = MiddlewareContext(
                module: "PaymentModule", operation: "createCharge", requestID: "r1",
                policy: RequestPolicy(retry: retryClass), logger: Logger(label: "test"))
            var headers = HTTPHeaders()
            if withKey { headers.add(name: "Idempotency-Key", value: "k1") }
            let request = HTTPRequest(
                method: .post, url: url, headers: headers, body: Data("{}".utf8), timeout: .seconds(10))
            let outcome = try await onLoop { transport, _ -> (first: Int, second: Int?) in
                let first = try await transport.send(request).status
                let second = try? await retry.intercept(request, context: context) { request, _ in
                    try await transport.send(request)
                }.status
                return (first, second)
            }
            #expect(outcome.first == 200)
            #expect(outcome.second == (resent ? 200 : nil))
            #expect(server.connectionCount == (resent ? 2 : 1))
        }
    }

    @Test func aFreshConnectionClosedBeforeAnAnswerIsNotRetried() async throws {
        try await ScriptedSocketServer.withServer(script: [.readRequest, .close]) { server in
            let url = server.baseURL.appendingPathComponent("closed")
            let code = try await onLoop { transport, _ -> TransportError.Code? in
                do {
                    _ = try await transport.send(Self.get(url))
                    return nil
                } catch let error as TransportError {
                    return error.code
                }
            }
            #expect(code == .connectionClosed)
            #expect(server.connectionCount == 1)
        }
    }

    @Test(arguments: [
        (
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
            "hello world", true
        ),
        ("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end", "until the end", false),
        ("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nold", "old", false),
        ("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnext", "next", true),
        // Fields whose names begin with `transfer-encoding` are not that field.
        ("HTTP/1.1 200 OK\r\nTransfer-Encodingx: y\r\nContent-Length: 5\r\n\r\nhello", "hello", true),
        ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTRANSFER-ENCODING-NOTE:\r\n\r\nhi", "hi", true),
        (
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nTransfer-Encodings: y\r\n\r\n2\r\nok\r\n0\r\n\r\n",
            "ok", true
        ),
    ])
    func readsEveryBodyFraming(_ answer: String, _ expected: String, _ reusable: Bool) async throws {
        // Every connection runs the script: one that may not be kept answers once and closes.
        let script: [ScriptedSocketServer.Step] =
            reusable
            ? [.readRequest, .send(answer), .readRequest, .send(answer), .close]
            : [.readRequest, .send(answer), .close]
        try await ScriptedSocketServer.withServer(script: script) { server in
            let url = server.baseURL.appendingPathComponent("framing")
            let bodies = try await onLoop { transport, _ in
                [
                    String(decoding: try await transport.send(Self.get(url)).body, as: UTF8.self),
                    String(decoding: try await transport.send(Self.get(url)).body, as: UTF8.self),
                ]
            }
            #expect(bodies == [expected, expected])
            // A connection is kept only when the answer allows it.
            #expect(server.connectionCount == (reusable ? 1 : 2))
        }
    }

    @Test func transferEncodingWithContentLengthIsRefused() async throws {
        // The field of exactly this name still marks the answer, whatever other fields say.
        let answer =
            "HTTP/1.1 200 OK\r\nTransfer-Encodingx: y\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\nhi"
        try await ScriptedSocketServer.withServer(script: [.readRequest, .send(answer), .close]) { server in
            let url = server.baseURL.appendingPathComponent("smuggled")
            let message = try await onLoop { transport, _ -> String? in
                do {
                    _ = try await transport.send(Self.get(url))
                    return nil
                } catch let error as TransportError {
                    return error.message
                }
            }
            #expect(message?.contains("HPE_UNEXPECTED_CONTENT_LENGTH") == true, "\(message ?? "answered")")
        }
    }

    @Test func bytesAfterTheAnswerRetireTheConnection() async throws {
        let script: [ScriptedSocketServer.Step] = [
            .readRequest,
            .send("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb"),
            .readRequest, .send("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nc"),
        ]
        try await ScriptedSocketServer.withServer(script: script) { server in
            let url = server.baseURL.appendingPathComponent("extra")
            let bodies = try await onLoop { transport, _ in
                [
                    String(decoding: try await transport.send(Self.get(url)).body, as: UTF8.self),
                    String(decoding: try await transport.send(Self.get(url)).body, as: UTF8.self),
                ]
            }
            // The unasked-for "b" is never taken as the second request's answer.
            #expect(bodies == ["a", "a"])
            #expect(server.connectionCount == 2)
        }
    }

    @Test(arguments: [
        (
            "HTTP/1.1 200 OK\r\nContent-Length: 64\r\n\r\n" + String(repeating: "x", count: 64),
            TransportError.Code.responseTooLarge
        ),
        ("HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "y", count: 600) + "\r\n\r\n", TransportError.Code.other),
        ("SMTP ready\r\n\r\n", TransportError.Code.other),
        ("HTTP/1.1 200 OK\r\nContent-Length: 12\r\nContent-Length: 13\r\n\r\n", TransportError.Code.other),
    ])
    func refusesAnswersOverTheLimitsOrNotHTTP(_ answer: String, _ expected: TransportError.Code) async throws {
        try await ScriptedSocketServer.withServer(script: [.readRequest, .send(answer), .pause(.seconds(5))]) {
            server in
            let url = server.baseURL.appendingPathComponent("limits")
            let error = try await onLoop(.init(maxResponseBodySize: 32, maxResponseHeadSize: 512)) { transport, _ in
                do {
                    _ = try await transport.send(Self.get(url))
                    return TransportError(.other, "answered")
                } catch let error as TransportError {
                    return error
                }
            }
            #expect(error.code == expected, "\(error)")
            #expect(error.message != "answered")
        }
    }

    @Test func writesTheRequestHeadAsGiven() async throws {
        try await withLoopbackServer(handler: TransportConformance.handle) { server in
            let url = server.url("/inspect?q=a%20b")
            let response = try await onLoop { transport, _ in
                try await transport.send(
                    HTTPRequest(
                        method: .post, url: url,
                        headers: ["X-One": "1", "Content-Length": "999", "X-Empty": ""],
                        timeout: .seconds(10)))
            }
            struct Inspection: Decodable {
                var method: String
                var headers: [[String]]
                var body: String?
            }
            let inspection = try JSONDecoder().decode(Inspection.self, from: response.body)
            #expect(inspection.method == "POST")
            let names = inspection.headers.compactMap { $0.first?.lowercased() }
            #expect(names.filter { $0 == "content-length" }.count == 1)
            #expect(
                inspection.headers.contains(["Content-Length", "0"])
                    || inspection.headers.contains(["content-length", "0"]))
            #expect(names.contains("host"))
            #expect(names.contains("x-one"))
            #expect(names.contains("x-empty"))
            #expect(!names.contains("user-agent"))
            #expect(!names.contains("accept"))
        }
    }

    @Test(arguments: [
        HTTPRequest(
            method: .get, url: URL(string: "http://127.0.0.1:9/a")!, headers: ["X-Bad": "one\r\nInjected: yes"]),
        HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:9/a")!, headers: ["Bad Name": "x"]),
        HTTPRequest(method: HTTPMethod(rawValue: "GET /x"), url: URL(string: "http://127.0.0.1:9/a")!),
    ])
    func refusesRequestsThatCannotBeWritten(_ request: HTTPTypes.HTTPRequest) async throws {
        let code = try await onLoop { transport, _ -> TransportError.Code? in
            do {
                _ = try await transport.send(request)
                return nil
            } catch let error as TransportError {
                return error.code
            }
        }
        #expect(code == .invalidRequest)
    }

    @Test func aShorterTimeoutSentLaterFiresFirst() async throws {
        // One loop timer serves every deadline: a request with a short timeout, sent while one
        // with a long timeout is waiting, must not wait for the long one's deadline.
        try await ScriptedSocketServer.withServer(script: [.readRequest, .pause(.seconds(8))]) { server in
            let url = server.baseURL.appendingPathComponent("slow")
            let (short, long) = try await onLoop { transport, _ -> (Duration, TransportError.Code?) in
                async let slow: TransportError.Code? = {
                    do {
                        _ = try await transport.send(Self.get(url, timeout: .seconds(4)))
                        return nil
                    } catch let error as TransportError {
                        return error.code
                    }
                }()
                try await Task.sleep(for: .milliseconds(100))
                let clock = ContinuousClock()
                let start = clock.now
                do {
                    _ = try await transport.send(Self.get(url, timeout: .milliseconds(200)))
                    Issue.record("the short request was answered")
                } catch let error as TransportError {
                    #expect(error.code == .timedOut)
                }
                return (clock.now - start, try await slow)
            }
            #expect(short < .seconds(2), "the 200 ms timeout fired after \(short)")
            #expect(long == .timedOut)
        }
    }

    @Test func aShutDownTransportRefusesAtOnce() async throws {
        try await withLoopbackServer(handler: TransportConformance.handle) { server in
            let url = server.url("/status/200")
            let codes = try await onLoop { transport, _ -> [String] in
                let before = try await transport.send(Self.get(url)).status
                await transport.shutdown()
                do {
                    _ = try await transport.send(Self.get(url))
                    return ["\(before)", "answered"]
                } catch let error as TransportError {
                    return ["\(before)", "\(error.code)"]
                }
            }
            #expect(codes == ["200", "\(TransportError.Code.shutDown)"])
        }
    }
}
