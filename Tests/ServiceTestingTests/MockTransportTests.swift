import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

struct MockTransportTests {
    private let url = URL(string: "https://directory.test/v1/users/alice?verbose=1")!

    private func client(_ mock: MockTransport) throws -> ServiceClient<DirectoryService> {
        try ServiceClient<DirectoryService>(baseURL: "https://directory.test", transport: mock)
    }

    @Test func aSequenceIsGivenInOrderThenItsLastReplyRepeats() async throws {
        let mock = MockTransport()
        mock.on(.any, .status(503), .status(502), .json(200, #"{"ok":true}"#))
        var statuses: [Int] = []
        for _ in 0..<5 {
            statuses.append(try await mock.send(HTTPRequest(method: .get, url: url)).status)
        }
        #expect(statuses == [503, 502, 200, 200, 200])
        #expect(mock.requests.count == 5)
    }

    @Test func anExhaustedScriptFailsWhenAskedTo() async throws {
        let mock = MockTransport()
        mock.on(.any, .ok, afterwards: .fail)
        _ = try await mock.send(HTTPRequest(method: .get, url: url))
        let error = await #expect(throws: TransportError.self) {
            try await mock.send(HTTPRequest(method: .get, url: url))
        }
        #expect(error?.code == .other)
        #expect(error?.message.contains("had 1 replies") == true)
    }

    @Test func scriptsMatchTheServiceCaseTheClientSends() async throws {
        let mock = MockTransport()
        mock.on(.operation("profile"), .json(200, #"{"id":"alice","name":"Alice"}"#))
        mock.on(.operation("rename", module: "Directory"), .noContent)
        let client = try client(mock)
        let profile: Profile = try await client.send(.profile(id: "alice"), as: Profile.self)
        let renamed = try await client.send(.rename(id: "alice", name: "Al"))
        #expect(profile == Profile(id: "alice", name: "Alice"))
        #expect(renamed.status == 204)
        #expect(mock.exchanges.map(\.operation) == ["profile", "rename"])
        #expect(mock.exchanges.map(\.module) == ["Directory", "Directory"])
        #expect(mock.exchanges.map(\.script) == ["case profile", "case Directory.rename"])
    }

    @Test func scriptsMatchMethodAndPath() async throws {
        let mock = MockTransport()
        mock.on(.request(.put, path: "/v1/users/alice/name"), .noContent)
        mock.on(.request(path: "/v1/users/alice"), .json(200, #"{"id":"alice","name":"A"}"#))
        let put = try await mock.send(
            HTTPRequest(method: .put, url: URL(string: "https://x.test/v1/users/alice/name")!))
        let get = try await mock.send(HTTPRequest(method: .get, url: url))
        #expect(put.status == 204)
        #expect(get.status == 200)
        #expect(get.headers["Content-Type"] == "application/json")
        #expect(mock.requests(matching: .method(.put, path: "/v1/users/alice/name")).count == 1)
    }

    @Test func aRetriedCaseSeesTheScriptedSequenceThroughTheClient() async throws {
        let mock = MockTransport.flaky(failures: 2)
        let client = try client(mock)
        let first = await #expect(throws: ServiceError.self) { try await client.send(.profile(id: "a")) }
        #expect(first?.response?.status == 503)
        _ = try? await client.send(.profile(id: "a"))
        let third = try await client.send(.profile(id: "a"))
        #expect(third.status == 200)
    }

    @Test func anUnscriptedRequestFailsNamingTheRequestAndCase() async throws {
        let mock = MockTransport()
        mock.on(.operation("rename"), .noContent)
        let error = await #expect(throws: ServiceError.self) {
            try await client(mock).send(.profile(id: "bob"))
        }
        let cause = try #require(error?.underlying as? TransportError)
        #expect(cause.code == .other)
        #expect(cause.message.contains("GET /v1/users/bob"))
        #expect(cause.message.contains("Directory.profile"))
        #expect(mock.exchanges.first?.script == nil)
    }

    @Test func aFallbackAnswersWhatNoScriptMatches() async throws {
        let mock = MockTransport(fallback: .notFound)
        mock.on(.request(path: "/known"), .ok)
        #expect(try await mock.send(HTTPRequest(method: .get, url: url)).status == 404)
        mock.fallback = nil
        await #expect(throws: TransportError.self) { try await mock.send(HTTPRequest(method: .get, url: url)) }
    }

    @Test(arguments: [TransportError.Code.timedOut, .connectionFailed, .connectionClosed, .shutDown])
    func scriptedErrorsAreThrown(_ code: TransportError.Code) async throws {
        let mock = MockTransport.failing(code)
        let error = await #expect(throws: TransportError.self) {
            try await mock.send(HTTPRequest(method: .get, url: url))
        }
        #expect(error?.code == code)
    }

    @Test func presetsCarryWhatTheirNamesSay() async throws {
        let mock = MockTransport()
        mock.on(.request(path: "/limited"), .tooManyRequests(retryAfter: 7))
        mock.on(.request(path: "/timeout"), .timeout)
        mock.on(.request(path: "/refused"), .connectionRefused)
        let limited = try await mock.send(HTTPRequest(method: .get, url: URL(string: "http://h.test/limited")!))
        #expect(limited.status == 429)
        #expect(limited.headers["Retry-After"] == "7")
        let timeout = await #expect(throws: TransportError.self) {
            try await mock.send(HTTPRequest(method: .get, url: URL(string: "http://h.test/timeout")!))
        }
        #expect(timeout?.code == .timedOut)
        let refused = await #expect(throws: TransportError.self) {
            try await mock.send(HTTPRequest(method: .get, url: URL(string: "http://h.test/refused")!))
        }
        #expect(refused?.code == .connectionFailed)
    }

    @Test func aDelayEndsWithTheRequestTimeout() async throws {
        let mock = MockTransport.always(.delay(.seconds(30), then: .ok))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: TransportError.self) {
            try await mock.send(HTTPRequest(method: .get, url: url, timeout: .milliseconds(50)))
        }
        #expect(error?.code == .timedOut)
        #expect(clock.now - start < .seconds(10))
    }

    @Test func aDelayEndsWhenTheTaskIsCancelled() async throws {
        let mock = MockTransport.always(.delay(.seconds(30), then: .ok))
        let request = HTTPRequest(method: .get, url: url)
        let task = Task { try await mock.send(request) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let error = await #expect(throws: TransportError.self) { try await task.value }
        #expect(error?.code == .cancelled)
    }

    @Test func aDelayShorterThanTheTimeoutGivesTheReply() async throws {
        let mock = MockTransport.always(.delay(.milliseconds(10), then: .status(201)))
        let response = try await mock.send(HTTPRequest(method: .get, url: url, timeout: .seconds(5)))
        #expect(response.status == 201)
    }

    @Test func aResponderSeesTheRequestAndItsErrorsBecomeTransportErrors() async throws {
        struct Boom: Error {}
        let mock = MockTransport()
        mock.on(.request(.post), .respond { request in HTTPResponse(status: 200, body: request.body ?? Data()) })
        mock.on(.request(.delete), .respond { _ in throw Boom() })
        let body = Data([0, 1, 2, 255])
        let echoed = try await mock.send(HTTPRequest(method: .post, url: url, body: body))
        #expect(echoed.body == body)
        let error = await #expect(throws: TransportError.self) {
            try await mock.send(HTTPRequest(method: .delete, url: url))
        }
        #expect(error?.code == .other)
        #expect(error?.underlying is Boom)
    }

    @Test func jsonEncodingAndEchoReplies() async throws {
        let mock = MockTransport()
        mock.on(.request(.get), .json(200, encoding: Profile(id: "a", name: "B")))
        mock.on(.request(.put), .echo)
        let json = try await mock.send(HTTPRequest(method: .get, url: url))
        #expect(try JSONDecoder().decode(Profile.self, from: json.body) == Profile(id: "a", name: "B"))
        let echoed = try await mock.send(HTTPRequest(method: .put, url: url, body: Data("x".utf8)))
        #expect(echoed.headers["X-Echo-Method"] == "PUT")
        #expect(echoed.headers["X-Echo-Target"] == "/v1/users/alice?verbose=1")
        #expect(echoed.body == Data("x".utf8))
    }

    @Test func resetForgetsScriptsAndRequests() async throws {
        let mock = MockTransport()
        mock.on(.any, .ok)
        _ = try await mock.send(HTTPRequest(method: .get, url: url))
        mock.reset()
        #expect(mock.requests.isEmpty)
        await #expect(throws: TransportError.self) { try await mock.send(HTTPRequest(method: .get, url: url)) }
    }

    @Test func concurrentRequestsAreAllRecorded() async throws {
        let mock = MockTransport.alwaysOK()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask {
                    _ = try? await mock.send(HTTPRequest(method: .get, url: URL(string: "http://h.test/\(index)")!))
                }
            }
        }
        #expect(Set(mock.requests.map(\.url.path)).count == 100)
    }
}
