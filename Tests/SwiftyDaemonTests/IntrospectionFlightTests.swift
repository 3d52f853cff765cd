import Foundation
import HTTPTypes
import SandboxUpstreams
import ServiceCore
import Synchronization
import Testing

@testable import SwiftyDaemon

/// Token introspection is single-flight per token: concurrent requests with an uncached token
/// share one call to the user domain.
@Suite(.timeLimit(.minutes(2)))
struct IntrospectionFlightTests {
    /// Counts the introspection requests that leave the daemon, per token.
    final class IntrospectionCounter: Middleware {
        private let counts = Mutex<[String: Int]>([:])

        func count(_ token: String) -> Int { counts.withLock { $0[token] ?? 0 } }

        func intercept(
            _ request: HTTPRequest,
            context: MiddlewareContext,
            next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
        ) async throws -> HTTPResponse {
            if context.operation == "introspect" {
                let body = (try? JSONSerialization.jsonObject(with: request.body ?? Data())) as? [String: Any]
                let token = body?["token"] as? String ?? "?"
                counts.withLock { $0[token, default: 0] += 1 }
            }
            return try await next(request, context)
        }
    }

    static func start() async throws -> (Daemon, SandboxUpstreams, AppClient, IntrospectionCounter) {
        let counter = IntrospectionCounter()
        var overrides = DaemonOverrides()
        overrides.afterSigning["UserModule"] = [counter]
        let daemon = try await UpstreamFailureTests.start(overrides: overrides)
        let sandbox = try #require(daemon.sandbox).upstreams
        return (daemon, sandbox, AppClient(baseURL: "http://127.0.0.1:\(daemon.port)"), counter)
    }

    static func statuses(_ app: AppClient, token: String, count: Int) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count { group.addTask { try await app.get("/v1/me", token: token).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func concurrentRequestsShareOneIntrospectionPerToken() async throws {
        let (daemon, sandbox, app, counter) = try await Self.start()
        // Slow introspection, so the requests overlap.
        try sandbox.setFaults(FaultSettings(latency: .milliseconds(400)), for: .user)
        async let alice = Self.statuses(app, token: "sandbox-alice", count: 20)
        async let bob = Self.statuses(app, token: "sandbox-bob", count: 20)
        #expect(try await alice == Array(repeating: 200, count: 20))
        #expect(try await bob == Array(repeating: 200, count: 20))
        #expect(counter.count("sandbox-alice") == 1)
        #expect(counter.count("sandbox-bob") == 1)
        await daemon.drain()
    }

    @Test func aFailureIsNotRememberedAsASuccess() async throws {
        let (daemon, sandbox, app, counter) = try await Self.start()
        try sandbox.setFaults(FaultSettings(errorRate: 1), for: .user)
        let failed = try await Self.statuses(app, token: "sandbox-carol", count: 5)
        #expect(failed.allSatisfy { $0 == 503 }, "\(failed)")
        try sandbox.setFaults(.none, for: .user)
        #expect(try await app.get("/v1/me", token: "sandbox-carol").status == 200)
        #expect(counter.count("sandbox-carol") >= 2, "introspected again after the failure")
        // Now cached.
        let before = counter.count("sandbox-carol")
        #expect(try await app.get("/v1/me", token: "sandbox-carol").status == 200)
        #expect(counter.count("sandbox-carol") == before)
        await daemon.drain()
    }

    @Test func aWaiterGoingAwayDoesNotFailTheOthers() async throws {
        let (daemon, sandbox, app, counter) = try await Self.start()
        try sandbox.setFaults(FaultSettings(latency: .milliseconds(800)), for: .user)
        // The first request makes the call; a later one waits for it, then its client gives up.
        async let first = app.get("/v1/me", token: "sandbox-alice")
        try await Task.sleep(for: .milliseconds(50))
        let impatient = Task {
            try? await app.send(.get, "/v1/me", token: "sandbox-alice", timeout: .milliseconds(200))
        }
        try await Task.sleep(for: .milliseconds(50))
        let patient = try await Self.statuses(app, token: "sandbox-alice", count: 5)
        _ = await impatient.value
        #expect(try await first.status == 200)
        #expect(patient == Array(repeating: 200, count: 5))
        #expect(counter.count("sandbox-alice") == 1)
        await daemon.drain()
    }

    @Test func whenTheRequestMakingTheCallGoesAwayAnotherMakesIt() async throws {
        let (daemon, sandbox, app, counter) = try await Self.start()
        try sandbox.setFaults(FaultSettings(latency: .milliseconds(800)), for: .user)
        let impatient = Task {
            try? await app.send(.get, "/v1/me", token: "sandbox-alice", timeout: .milliseconds(200))
        }
        try await Task.sleep(for: .milliseconds(50))
        let patient = try await Self.statuses(app, token: "sandbox-alice", count: 5)
        _ = await impatient.value
        #expect(patient == Array(repeating: 200, count: 5))
        // The abandoned call and one shared by the waiters (one only when the impatient request
        // did not lead, or its client went away after the call ended).
        #expect((1...2).contains(counter.count("sandbox-alice")))
        await daemon.drain()
    }
}
