public import HTTPTypes
public import ServiceCore
import Synchronization

/// Wraps any ``ServiceCore/Transport`` and keeps every request it sent and what came back, in
/// the order the requests were sent.
///
/// ```swift
/// let recorder = RecordingTransport(wrapping: CurlTransport())
/// let client = try ServiceClient<UserService>(baseURL: url, transport: recorder, middlewares: [signing])
/// _ = try await client.send(.profile(id: "alice"))
/// #expect(recorder.requests.first?.headers["Signature"] != nil)
/// ```
public final class RecordingTransport: Transport {
    /// One request and its outcome.
    public struct Exchange: Sendable {
        /// The request as handed to the wrapped transport.
        public var request: HTTPRequest
        /// The service call's context (module, case, attempt) when a `ServiceClient` sent it.
        public var context: MiddlewareContext?
        /// The response, once one arrived.
        public var response: HTTPResponse?
        /// The error the wrapped transport threw, if it threw.
        public var error: (any Error)?

        /// Whether the wrapped transport has returned or thrown for this request.
        public var isComplete: Bool { response != nil || error != nil }
    }

    /// The transport that does the I/O.
    public let wrapped: any Transport
    private let log = Mutex<[Exchange]>([])

    /// Creates a recorder around `transport`.
    public init(wrapping transport: any Transport) {
        wrapped = transport
    }

    /// Every exchange, in the order the requests were sent (those still in flight included).
    public var exchanges: [Exchange] { log.withLock { $0 } }

    /// Every request sent, in order.
    public var requests: [HTTPRequest] { log.withLock { $0.map(\.request) } }

    /// Every response received, in the order of their requests (failed requests are skipped).
    public var responses: [HTTPResponse] { log.withLock { $0.compactMap(\.response) } }

    /// Forgets every exchange recorded so far.
    public func reset() {
        log.withLock { $0.removeAll() }
    }

    /// Records the request, sends it through the wrapped transport, records the outcome.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let index = log.withLock { log in
            log.append(Exchange(request: request, context: MiddlewareContext.current))
            return log.count - 1
        }
        do {
            let response = try await wrapped.send(request)
            record(at: index) { $0.response = response }
            return response
        } catch {
            record(at: index) { $0.error = error }
            throw error
        }
    }

    private func record(at index: Int, _ update: (inout Exchange) -> Void) {
        // A `reset()` while the request was in flight leaves nothing to update.
        log.withLock { log in
            if index < log.count { update(&log[index]) }
        }
    }
}
