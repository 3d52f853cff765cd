import Foundation
import HTTPFramingCorpus
import Synchronization
import Testing

@testable import HTTPServer

/// Handler tasks are reused from request to request, never after a cancellation, and end with
/// the server.
struct HandlerWorkerTests {
    @Test func oneTaskAnswersSequentialRequestsAndEndsWithTheServer() async throws {
        let server = HTTPServer(configuration: .init(threadCount: 1)) { request in
            .text(200, request.path)
        }
        try server.start()
        let port = server.port
        let paths = try await blocking {
            let connection = try RawConnection(port: port)
            return try (1...5).map { index in
                try connection.send("GET /r\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                return try connection.readResponse().bodyText
            }
        }
        #expect(paths == ["/r1", "/r2", "/r3", "/r4", "/r5"])
        // A task made for each request would have ended after its answer; the worker is parked.
        try await Task.sleep(for: .milliseconds(50))
        #expect(server.liveHandlerTasks == 1)
        // A second connection, later, on the same loop: the parked worker answers it.
        let again = try await exchange(port: port, "GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(again.bodyText == "/again")
        try await Task.sleep(for: .milliseconds(50))
        #expect(server.liveHandlerTasks == 1)
        try await shutDownExpectingNoTasks(server)
    }

    @Test func concurrentRequestsGetTasksOfTheirOwnAndKeepThem() async throws {
        let release = Atomic<Bool>(false)
        let started = Atomic<Int>(0)
        let server = HTTPServer(configuration: .init(threadCount: 1)) { _ in
            started.add(1, ordering: .relaxed)
            await waitFor(release)
            return .text(200, "ok")
        }
        try server.start()
        let port = server.port
        let requests = (0..<3).map { _ in
            Task { try? await exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") }
        }
        try await waitUntil { started.load(ordering: .relaxed) == 3 }
        #expect(server.liveHandlerTasks == 3)
        release.store(true, ordering: .relaxed)
        for request in requests { #expect(await request.value?.status == 200) }
        // Three parked workers now answer three more requests without a fourth task.
        let more = (0..<3).map { _ in
            Task { try? await exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") }
        }
        for request in more { #expect(await request.value?.status == 200) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(server.liveHandlerTasks == 3)
        try await shutDownExpectingNoTasks(server)
    }

    @Test func aCancelledHandlersTaskIsNotReused() async throws {
        let release = Atomic<Bool>(false)
        let configuration = HTTPServer.Configuration(threadCount: 1, handlerTimeout: .milliseconds(200))
        try await withServer(
            configuration,
            handler: { request in
                if request.path == "/stuck" {
                    await waitFor(release)
                    return .text(200, "late")
                }
                return .text(200, Task.isCancelled ? "cancelled" : "running")
            }
        ) { server in
            let stuck = try await exchange(port: server.port, "GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(stuck.status == 504)
            release.store(true, ordering: .relaxed)
            // The timed-out handler's task was cancelled: it ends once its handler returns.
            try await waitUntil { server.liveHandlerTasks == 0 }
            #expect(server.liveHandlerTasks == 0)
            let next = try await exchange(port: server.port, "GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(next.bodyText == "running")
        }
    }

    /// Shuts the server down and expects every handler task, parked or not, to have ended.
    private func shutDownExpectingNoTasks(_ server: HTTPServer) async throws {
        await server.shutdown(gracePeriod: .seconds(1))
        try await waitUntil { server.liveHandlerTasks == 0 }
        #expect(server.liveHandlerTasks == 0)
    }
}
