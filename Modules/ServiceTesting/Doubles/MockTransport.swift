import Foundation
public import HTTPTypes
public import ServiceCore
import Synchronization

/// A scripted ``ServiceCore/Transport`` for tests: answers per service case or per method and
/// path, in sequences, and records every request.
///
/// ```swift
/// let mock = MockTransport()
/// mock.on(.operation("profile"), .status(503), .status(503), .json(200, #"{"id":"alice"}"#))
/// mock.on(.request(.delete, path: "/v1/sessions/1"), .noContent)
/// let client = try ServiceClient<UserService>(baseURL: "https://users.test", transport: mock)
/// // ... exercise the code under test ...
/// #expect(mock.requests.count == 3)
/// ```
///
/// Scripts are tried in the order they were added; the first whose ``Match`` accepts the request
/// gives its next reply. After its last reply a script repeats that reply, or fails the request
/// when added with `afterwards: .fail`. A request no script matches, with no ``fallback``, fails
/// with a `TransportError` of code `other` whose message names the request, so a missing script
/// is obvious in the test's output.
public final class MockTransport: Transport {
    /// What a script does once it has given all its replies.
    public enum Exhaustion: Sendable {
        /// Its last reply answers every later request (the default).
        case repeatLast
        /// A later request fails with a `TransportError` of code `other` naming the script.
        case fail
    }

    /// One request the mock received, in order.
    public struct Exchange: Sendable {
        /// The request exactly as the transport got it.
        public var request: HTTPRequest
        /// The service call's context (module, case, attempt) when a `ServiceClient` sent it.
        public var context: MiddlewareContext?
        /// The description of the script that answered, or `nil` when none did.
        public var script: String?

        /// The module that sent the request, when known.
        public var module: String? { context?.module }
        /// The service case that sent the request, when known.
        public var operation: String? { context?.operation }
    }

    fileprivate struct Script {
        var match: Match
        var replies: [Reply]
        var given = 0
        var afterwards: Exhaustion
    }

    private struct State {
        var scripts: [Script] = []
        var exchanges: [Exchange] = []
        var fallback: Reply?
    }

    private let state: Mutex<State>

    /// Creates a mock with no scripts.
    /// - Parameter fallback: The reply to requests no script matches, or `nil` to fail them.
    public init(fallback: Reply? = nil) {
        state = Mutex(State(fallback: fallback))
    }

    /// The reply to requests no script matches, or `nil` to fail them with a message naming them.
    public var fallback: Reply? {
        get { state.withLock { $0.fallback } }
        set { state.withLock { $0.fallback = newValue } }
    }

    /// Adds a script: requests accepted by `match` get `replies` in order.
    /// - Parameters:
    ///   - match: Which requests the script answers.
    ///   - replies: The replies, in order; at least one.
    ///   - afterwards: What happens after the last reply; ``Exhaustion/repeatLast`` by default.
    /// - Returns: The mock, so scripts can be chained.
    @discardableResult
    public func on(_ match: Match, _ replies: Reply..., afterwards: Exhaustion = .repeatLast) -> MockTransport {
        on(match, replies: replies, afterwards: afterwards)
    }

    /// Adds a script from an array of replies; see ``on(_:_:afterwards:)``.
    @discardableResult
    public func on(_ match: Match, replies: [Reply], afterwards: Exhaustion = .repeatLast) -> MockTransport {
        state.withLock { $0.scripts.append(Script(match: match, replies: replies, afterwards: afterwards)) }
        return self
    }

    /// Every request received, in order, with its service context.
    public var exchanges: [Exchange] { state.withLock { $0.exchanges } }

    /// Every request received, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.exchanges.map(\.request) } }

    /// The requests accepted by `match`, in order.
    public func requests(matching match: Match) -> [HTTPRequest] {
        state.withLock { $0.exchanges.filter { match.matches($0.request, context: $0.context) }.map(\.request) }
    }

    /// Removes every script and recorded request (the fallback stays).
    public func reset() {
        state.withLock { state in
            state.scripts.removeAll()
            state.exchanges.removeAll()
        }
    }

    /// Records the request and answers it with the first matching script's next reply.
    /// - Throws: The scripted `TransportError`, `cancelled` when the task is cancelled, or `other`
    ///   when nothing is scripted for the request.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let context = MiddlewareContext.current
        let reply = state.withLock { state in
            var exchange = Exchange(request: request, context: context)
            defer { state.exchanges.append(exchange) }
            guard let index = state.scripts.firstIndex(where: { $0.match.matches(request, context: context) }) else {
                exchange.script = nil
                return state.fallback ?? .failure(MockTransport.unscripted(request, context: context))
            }
            exchange.script = state.scripts[index].match.description
            return state.scripts[index].nextReply()
        }
        if Task.isCancelled {
            throw TransportError(.cancelled, "\(MockTransport.summary(request)) was cancelled before it was answered")
        }
        return try await MockTransport.perform(reply, for: request)
    }

    private static func perform(_ reply: Reply, for request: HTTPRequest) async throws -> HTTPResponse {
        switch reply {
        case .response(let response):
            return response
        case .failure(let error):
            throw error
        case .delayed(let duration, let inner):
            try await wait(duration, for: request)
            return try await perform(inner, for: request)
        case .responder(let body):
            do {
                return try await body(request)
            } catch let error as TransportError {
                throw error
            } catch is CancellationError {
                throw TransportError(.cancelled, "\(summary(request)) was cancelled")
            } catch {
                throw TransportError(
                    .other, "the mock's responder for \(summary(request)) threw \(error)", underlying: error)
            }
        }
    }

    /// Sleeps like a slow upstream: the request's timeout and the task's cancellation end it early.
    static func wait(_ duration: Duration, for request: HTTPRequest) async throws {
        let timedOut = request.timeout.map { $0 < duration } ?? false
        do {
            try await Task.sleep(for: timedOut ? request.timeout! : duration)
        } catch {
            throw TransportError(.cancelled, "\(summary(request)) was cancelled")
        }
        if timedOut {
            throw TransportError(.timedOut, "\(summary(request)) did not complete within \(request.timeout!)")
        }
    }

    private static func unscripted(_ request: HTTPRequest, context: MiddlewareContext?) -> TransportError {
        let service = context.map { " (case \($0.module).\($0.operation))" } ?? ""
        return TransportError(
            .other,
            "MockTransport has no reply for \(summary(request))\(service); add one with "
                + "mock.on(.operation(...), ...) or mock.on(.request(...), ...), or set a fallback"
        )
    }

    /// `METHOD /path` (no query: it may hold secrets).
    static func summary(_ request: HTTPRequest) -> String {
        "\(request.method) \(encodedPath(of: request))"
    }

    /// The request's path, percent-encoded as sent.
    static func encodedPath(of request: HTTPRequest) -> String {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? request.url.path
        return path.isEmpty ? "/" : path
    }
}

extension MockTransport.Script {
    fileprivate mutating func nextReply() -> MockTransport.Reply {
        defer { given += 1 }
        if given < replies.count { return replies[given] }
        guard let last = replies.last, afterwards == .repeatLast else {
            return .failure(
                TransportError(
                    .other,
                    "the MockTransport script for \(match.description) had \(replies.count) replies "
                        + "and was asked for reply \(given + 1)"
                )
            )
        }
        return last
    }
}

extension MockTransport {
    /// A mock that answers every request with `reply`.
    public static func always(_ reply: Reply) -> MockTransport { MockTransport(fallback: reply) }

    /// A mock that answers every request `200` with an empty body.
    public static func alwaysOK() -> MockTransport { always(.ok) }

    /// A mock that echoes every request (see ``Reply/echo``).
    public static func echo() -> MockTransport { always(.echo) }

    /// A mock whose every request fails with a `TransportError` of `code`.
    public static func failing(_ code: TransportError.Code) -> MockTransport {
        always(.error(code, "scripted failure"))
    }

    /// A mock that answers the first `failures` requests with `failure` (503 by default), then
    /// `success` (200 by default): the usual retry test.
    public static func flaky(failures: Int, with failure: Reply = .serviceUnavailable, then success: Reply = .ok)
        -> MockTransport
    {
        MockTransport().on(.any, replies: Array(repeating: failure, count: max(0, failures)) + [success])
    }
}
