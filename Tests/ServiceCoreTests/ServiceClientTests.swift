import AppLogging
import Foundation
import HTTPTypes
import ServiceCore
import Synchronization
import Testing

struct ServiceClientTests {
    @Test func decodesTheWholeBody() async throws {
        let transport = ClosureTransport.json(200, #"{"id":"alice","name":"Alice"}"#)
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let profile = try await client.send(.profile(id: "alice"), as: Profile.self)
        #expect(profile == Profile(id: "alice", name: "Alice"))
        #expect(transport.requests.count == 1)
    }

    @Test func decodesAtAKeyPath() async throws {
        let transport = ClosureTransport.json(200, #"{"data":{"user":{"id":"bob","name":"Bob"},"extra":1}}"#)
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let profile = try await client.send(.profile(id: "bob"), as: Profile.self, atKeyPath: "data.user")
        #expect(profile == Profile(id: "bob", name: "Bob"))
    }

    @Test func missingKeyPathIsADecodingErrorNamingThePath() async throws {
        let transport = ClosureTransport.json(200, #"{"data":{}}"#)
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        await #expect {
            try await client.send(.profile(id: "bob"), as: Profile.self, atKeyPath: "data.user")
        } throws: { error in
            let error = try #require(error as? ServiceError)
            return error.code == .decoding && error.description.contains("data.user")
                && error.description.contains("missing key \"user\"")
        }
    }

    @Test func wrongTypeIsADecodingError() async throws {
        let transport = ClosureTransport.json(200, #"{"id":7,"name":"x"}"#)
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        await #expect {
            try await client.send(.profile(id: "x"), as: Profile.self)
        } throws: { error in
            let error = try #require(error as? ServiceError)
            return error.code == .decoding && error.message.contains("\"id\"")
        }
    }

    @Test func nonAcceptedStatusCarriesResponseAndEnvelope() async throws {
        let body = #"{"title":"No such user","status":404,"detail":"x"}"#
        let transport = ClosureTransport.json(404, body)
        let client = try ServiceClient<DemoService>(
            baseURL: "https://h.example",
            transport: transport,
            configuration: ServiceClientConfiguration(errorBodyLimit: 10)
        )
        let error = await #expect(throws: ServiceError.self) {
            try await client.send(.profile(id: "ghost"))
        }
        let failure = try #require(error)
        #expect(failure.code == .unacceptableStatus)
        #expect(failure.module == "DemoModule")
        #expect(failure.operation == "profile")
        #expect(failure.response?.status == 404)
        #expect(failure.response?.bodyPrefix.count == 10)
        #expect(failure.response?.bodyLength == body.utf8.count)
        #expect(failure.envelope(as: Problem.self) == Problem(title: "No such user", status: 404))
        #expect(failure.attempts == 1)
        #expect(failure.description.contains("DemoModule.profile"))
        #expect(failure.description.contains("HTTP 404"))
        #expect(failure.description.contains("GET https://h.example/v1/users/ghost"))
        #expect(failure.description.contains("No such user"))
    }

    @Test func undecodableEnvelopeIsNil() async throws {
        let transport = ClosureTransport.json(500, "<html>oops</html>")
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let error = await #expect(throws: ServiceError.self) { try await client.send(.profile(id: "x")) }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.envelope == nil)
    }

    @Test func perCaseAcceptableStatusOverridesTheDefault() async throws {
        let transport = ClosureTransport.json(404, "{}")
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let response = try await client.send(.accept404)
        #expect(response.status == 404)
        await #expect(throws: ServiceError.self) { try await client.send(.profile(id: "x")) }
    }

    @Test func middlewaresRunFirstOutermost() async throws {
        let order = Mutex<[String]>([])
        struct Tagging: Middleware {
            let name: String
            let order: @Sendable (String) -> Void
            func intercept(
                _ request: HTTPRequest,
                context: MiddlewareContext,
                next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
            ) async throws -> HTTPResponse {
                order("\(name) in")
                var request = request
                request.headers.add(name: "X-Chain", value: name)
                let response = try await next(request, context)
                order("\(name) out")
                return response
            }
        }
        let record: @Sendable (String) -> Void = { entry in order.withLock { $0.append(entry) } }
        let transport = ClosureTransport { request in
            record("transport")
            return HTTPResponse(status: 200)
        }
        let client = try ServiceClient<DemoService>(
            baseURL: "https://h.example",
            transport: transport,
            middlewares: [Tagging(name: "a", order: record), Tagging(name: "b", order: record)]
        )
        _ = try await client.send(.profile(id: "x"))
        #expect(order.withLock { $0 } == ["a in", "b in", "transport", "b out", "a out"])
        #expect(transport.requests.first?.headers.values(for: "x-chain") == ["a", "b"])
    }

    @Test func contextNamesModuleOperationAndIsBoundForTheTransport() async throws {
        let seen = Mutex<MiddlewareContext?>(nil)
        let transport = ClosureTransport { _ in
            seen.withLock { $0 = MiddlewareContext.current }
            return HTTPResponse(status: 204)
        }
        let client = try ServiceClient<DemoService>(
            baseURL: "https://h.example",
            transport: transport,
            configuration: ServiceClientConfiguration(requestIDGenerator: { "req-1" })
        )
        _ = try await client.send(.profile(id: "x"))
        let context = try #require(seen.withLock { $0 })
        #expect(context.module == "DemoModule")
        #expect(context.operation == "profile")
        #expect(context.requestID == "req-1")
        #expect(context.attempt == 1)
        #expect(MiddlewareContext.current == nil)
    }

    @Test func retriesByAMiddlewareAreCountedInErrors() async throws {
        struct TwiceMore: Middleware {
            func intercept(
                _ request: HTTPRequest,
                context: MiddlewareContext,
                next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
            ) async throws -> HTTPResponse {
                var context = context
                var last = try await next(request, context)
                for _ in 0..<2 where last.status >= 500 {
                    context.attempt += 1
                    last = try await next(request, context)
                }
                return last
            }
        }
        let transport = ClosureTransport.json(503, "{}")
        let client = try ServiceClient<DemoService>(
            baseURL: "https://h.example",
            transport: transport,
            middlewares: [TwiceMore()]
        )
        let error = await #expect(throws: ServiceError.self) { try await client.send(.profile(id: "x")) }
        #expect(error?.attempts == 3)
        #expect(transport.requests.count == 3)
        #expect(error?.description.contains("3 attempts") == true)
    }

    @Test(arguments: [
        (TransportError.Code.timedOut, ServiceError.Code.timeout),
        (.cancelled, .cancelled),
        (.connectionFailed, .transport),
        (.responseTooLarge, .transport),
    ])
    func transportErrorsMapToCodes(from: TransportError.Code, to: ServiceError.Code) async throws {
        let transport = ClosureTransport { _ in throw TransportError(from, "upstream said no") }
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let error = await #expect(throws: ServiceError.self) { try await client.send(.profile(id: "x")) }
        #expect(error?.code == to)
        #expect(error?.underlying is TransportError)
        #expect(error?.request?.url.absoluteString == "https://h.example/v1/users/x")
    }

    @Test func cancellationReachesTheTransport() async throws {
        let started = Mutex(false)
        let transport = ClosureTransport { _ in
            started.withLock { $0 = true }
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                throw TransportError(.cancelled, "cancelled while waiting")
            }
            return HTTPResponse(status: 200)
        }
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let task = Task { try await client.send(.profile(id: "x")) }
        for _ in 0..<200 where !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        let result = await task.result
        #expect(clock.now - start < .seconds(5))
        guard case .failure(let error as ServiceError) = result else {
            Issue.record("expected a ServiceError, got \(result)")
            return
        }
        #expect(error.code == .cancelled)
    }

    @Test func alreadyCancelledTaskSendsNothing() async throws {
        let transport = ClosureTransport.json(200, "{}")
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(.profile(id: "x"))
        }
        let result = await task.result
        #expect(throws: ServiceError.self) { try result.get() }
        #expect(transport.requests.isEmpty)
    }

    @Test func completionHandlerDeliversTheDecodedValue() async throws {
        let transport = ClosureTransport.json(200, #"{"id":"c","name":"Carol"}"#)
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let received = Mutex<Result<Profile, ServiceError>?>(nil)
        let handle = client.send(.profile(id: "c"), as: Profile.self) { result in
            received.withLock { $0 = result }
        }
        await handle.wait()
        let result = received.withLock { $0 }
        #expect(try result?.get() == Profile(id: "c", name: "Carol"))
    }

    @Test func completionHandlerCancellationReportsCancelled() async throws {
        let transport = ClosureTransport { _ in
            do { try await Task.sleep(for: .seconds(30)) } catch { throw TransportError(.cancelled, "stopped") }
            return HTTPResponse(status: 200)
        }
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let received = Mutex<Result<HTTPResponse, ServiceError>?>(nil)
        let handle = client.send(.profile(id: "c")) { result in received.withLock { $0 = result } }
        handle.cancel()
        await handle.wait()
        #expect(handle.isCancelled)
        let result = received.withLock { $0 }
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .cancelled)
    }

    @Test func errorDescriptionHidesTheQuery() async throws {
        let transport = ClosureTransport.json(401, "{}")
        let client = try ServiceClient<DemoService>(baseURL: "https://h.example", transport: transport)
        let error = await #expect(throws: ServiceError.self) {
            try await client.send(.search(["token": "s3cr3t"]))
        }
        #expect(error?.description.contains("s3cr3t") == false)
        #expect(error?.description.contains("/v1/search?…") == true)
    }
}
