import AppLogging
import Foundation
import HTTPTypes
import RequestSigning
import ServiceCore
import Synchronization
import Testing

struct SigningMiddlewareTests {
    /// Records every request it is given and answers from a script of statuses.
    final class RecordingTransport: Transport {
        private let state = Mutex<(requests: [HTTPRequest], statuses: [Int])>(([], []))

        init(statuses: [Int]) { state.withLock { $0.statuses = statuses } }

        var requests: [HTTPRequest] { state.withLock { $0.requests } }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let status = state.withLock { state in
                state.requests.append(request)
                return state.statuses.isEmpty ? 200 : state.statuses.removeFirst()
            }
            return HTTPResponse(status: status)
        }
    }

    /// Retries once on a 503, as the client's retry middleware does: the same request again,
    /// with the attempt number increased.
    struct RetryOnce: Middleware {
        func intercept(
            _ request: HTTPRequest,
            context: MiddlewareContext,
            next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
        ) async throws -> HTTPResponse {
            let first = try await next(request, context)
            guard first.status == 503 else { return first }
            var again = context
            again.attempt += 1
            return try await next(request, again)
        }
    }

    private func context(module: String = "UserModule") -> MiddlewareContext {
        MiddlewareContext(
            module: module, operation: "pay", requestID: "r-1", policy: .default(for: .post),
            logger: Logger(label: "test", handler: InMemoryLogHandler()))
    }

    /// Folds middlewares around a transport with the first one outermost.
    private func send(
        _ request: HTTPRequest,
        through middlewares: [any Middleware],
        transport: any Transport,
        context: MiddlewareContext
    ) async throws -> HTTPResponse {
        var next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse = { request, _ in
            try await transport.send(request)
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { request, context in try await middleware.intercept(request, context: context, next: inner) }
        }
        return try await next(request, context)
    }

    @Test func everyAttemptIsSignedAfresh() async throws {
        let transport = RecordingTransport(statuses: [503, 200])
        let signing = SigningMiddleware(signer: try Fixtures.signer())
        let response = try await send(
            Fixtures.postRequest(), through: [RetryOnce(), signing], transport: transport, context: context())
        #expect(response.status == 200)
        let sent = transport.requests
        try #require(sent.count == 2)
        let inputs = try sent.map { try SignatureInput.parse(fieldValue: $0.headers["Signature-Input"] ?? "")[0] }
        #expect(inputs[0].parameters.nonce != inputs[1].parameters.nonce)
        #expect(sent[0].headers["Signature"] != sent[1].headers["Signature"])
        #expect(sent[0].headers["Content-Digest"] == sent[1].headers["Content-Digest"])
        // One signature per attempt, not an accumulation.
        #expect(sent[1].headers.values(for: "Signature").count == 1)
        #expect(try SignatureInput.parse(fieldValue: sent[1].headers["Signature-Input"] ?? "").count == 1)
        // Each attempt verifies on its own, and neither is a replay of the other.
        let verifier = try Fixtures.verifier()
        for request in sent { _ = try await verifier.verify(try Fixtures.received(request)) }
    }

    @Test func signsWithTheClockOfEachAttempt() async throws {
        let times = Mutex([Fixtures.created, Fixtures.created.addingTimeInterval(5)])
        let signer = try RequestSigner(
            key: try Fixtures.key(), clock: { times.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] } })
        let transport = RecordingTransport(statuses: [503, 200])
        _ = try await send(
            Fixtures.getRequest(), through: [RetryOnce(), SigningMiddleware(signer: signer)], transport: transport,
            context: context())
        let created = try transport.requests.map {
            try SignatureInput.parse(fieldValue: $0.headers["Signature-Input"] ?? "")[0].parameters.created
        }
        #expect(created == [1_700_000_000, 1_700_000_005])
    }

    @Test func refusesToSignForAnotherModule() async throws {
        let transport = RecordingTransport(statuses: [])
        let signing = SigningMiddleware(signer: try Fixtures.signer())
        await #expect {
            try await send(
                Fixtures.getRequest(), through: [signing], transport: transport, context: context(module: "FeedModule"))
        } throws: { ($0 as? SigningError)?.code == .moduleMismatch }
        #expect(transport.requests.isEmpty)
        let unchecked = SigningMiddleware(signer: try Fixtures.signer(), checksModule: false)
        _ = try await send(
            Fixtures.getRequest(), through: [unchecked], transport: transport, context: context(module: "FeedModule"))
        #expect(transport.requests.count == 1)
    }
}
