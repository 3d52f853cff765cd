import Foundation
import HTTPFramingCorpus
import HTTPServer
import HTTPTypes
import ServiceCore
import Synchronization
import Testing

struct ServerLifecycleTests {
    @Test func hundredConcurrentRequests() async throws {
        try await withServer(handler: { request in
            try? await Task.sleep(for: .milliseconds(10))
            return .text(200, request.path)
        }) { server in
            let port = server.port
            let paths = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let response = try await exchange(port: port, "GET /r\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                        return (response.status, response.bodyText)
                    }
                }
                var collected: [(Int, String)] = []
                for try await result in group { collected.append(result) }
                return collected
            }
            #expect(paths.count == 100)
            #expect(paths.allSatisfy { $0.0 == 200 })
            #expect(Set(paths.map(\.1)) == Set((0..<100).map { "/r\($0)" }))
        }
    }

    actor Tally {
        private(set) var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    @Test func handlersHoppingThroughAnActorAreAnswered() async throws {
        let tally = Tally()
        try await withServer(handler: { _ in
            let number = await tally.next()
            await Task.yield()
            return .text(200, "\(number)")
        }) { server in
            let port = server.port
            let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let response = try await exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                        return Int(response.bodyText) ?? -1
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(numbers) == Set(1...50))
            #expect(await tally.count == 50)
        }
    }

    @Test func handlerResumedFromAnotherThreadIsAnswered() async throws {
        // Like an upstream call whose completion arrives on a client library's own thread.
        try await withServer(handler: { request in
            let value = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                Thread {
                    Thread.sleep(forTimeInterval: 0.02)
                    continuation.resume(returning: "from another thread: \(request.path)")
                }.start()
            }
            return .text(200, value)
        }) { server in
            let port = server.port
            let responses = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await exchange(port: port, "GET /t\(index) HTTP/1.1\r\nHost: x\r\n\r\n").bodyText
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(responses) == Set((0..<20).map { "from another thread: /t\($0)" }))
        }
    }

    @Test func connectionPastTheLimitIsClosedAtOnce() async throws {
        let configuration = HTTPServer.Configuration(threadCount: 1, connectionLimit: 2)
        try await withServer(configuration, handler: echoHandler) { server in
            let port = server.port
            let (closedWhileFull, servedAfterwards) = try await blocking { () -> (Bool, Bool) in
                var first: RawConnection? = try RawConnection(port: port)
                let second = try RawConnection(port: port)
                try first?.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                try second.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try first?.readResponse()
                _ = try second.readResponse()
                // At the limit the third connection is accepted and closed at once, never queued.
                let third = try RawConnection(port: port, timeout: .seconds(2))
                let whileFull = third.waitForClose()
                first = nil
                for _ in 0..<100 {
                    let next = try? RawConnection(port: port, timeout: .seconds(1))
                    try? next?.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                    if (try? next?.readResponse())?.status == 200 { return (whileFull, true) }
                    Thread.sleep(forTimeInterval: 0.02)
                }
                return (whileFull, false)
            }
            #expect(closedWhileFull)
            #expect(servedAfterwards)
            #expect(server.refusedConnectionCount >= 1)
        }
    }

    @Test(arguments: [204, 304])
    func bodylessStatusSendsNoBody(_ status: Int) async throws {
        try await withServer(handler: { _ in
            ServerResponse(status: status, headers: ["ETag": "\"v1\""], body: Data("dropped".utf8))
        }) { server in
            let port = server.port
            let (first, second) = try await blocking {
                let connection = try RawConnection(port: port)
                try connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
                let first = try connection.readResponse()
                // A body after a 204/304 would be read as the start of the next answer.
                try connection.send("GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
                let second = try connection.readResponse()
                return (first, second)
            }
            #expect(first.status == status)
            #expect(first.header("ETag") == "\"v1\"")
            // Neither carries a body, so neither gets a Content-Length from the server.
            #expect(first.header("Content-Length") == nil)
            #expect(second.status == status)
        }
    }

    @Test func connectionSpecificResponseFieldsAreDropped() async throws {
        try await withServer(handler: { _ in
            ServerResponse(
                status: 200,
                headers: [
                    "Transfer-Encoding": "chunked", "Content-Length": "999", "Keep-Alive": "timeout=5",
                    "Connection": "keep-alive", "X-Kept": "yes",
                ],
                body: Data("four".utf8)
            )
        }) { server in
            let port = server.port
            let (first, second) = try await blocking {
                let connection = try RawConnection(port: port)
                try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
                return (try connection.readResponse(), try connection.readResponse())
            }
            #expect(first.bodyText == "four")
            #expect(first.header("Content-Length") == "4")
            #expect(first.header("Transfer-Encoding") == nil)
            #expect(first.header("Keep-Alive") == nil)
            #expect(first.header("Connection") == nil)
            #expect(first.header("X-Kept") == "yes")
            #expect(second.bodyText == "four")
        }
    }

    @Test func handlerConnectionCloseClosesTheConnection() async throws {
        try await withServer(handler: { _ in
            ServerResponse(status: 200, headers: ["Connection": "close"], body: Data("bye".utf8))
        }) { server in
            let port = server.port
            let (response, closed) = try await blocking {
                let connection = try RawConnection(port: port)
                try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                return (try connection.readResponse(), connection.waitForClose())
            }
            #expect(response.bodyText == "bye")
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(closed)
        }
    }

    @Test func headAnswerHasNoBody() async throws {
        try await withServer(handler: echoHandler) { server in
            let port = server.port
            let (head, get) = try await blocking {
                let connection = try RawConnection(port: port)
                try connection.send("HEAD /h HTTP/1.1\r\nHost: x\r\n\r\n")
                let head = try connection.readResponse(bodyless: true)
                try connection.send("GET /g HTTP/1.1\r\nHost: x\r\n\r\n")
                return (head, try connection.readResponse())
            }
            #expect(head.status == 200)
            #expect(get.status == 200)
            #expect(try JSONDecoder().decode(EchoBody.self, from: Data(get.body)).path == "/g")
        }
    }

    @Test func shutdownLetsInFlightRequestFinishThenRefusesConnections() async throws {
        let entered = Atomic<Bool>(false)
        let released = Atomic<Bool>(false)
        let server = HTTPServer(configuration: .init(threadCount: 2)) { _ in
            entered.store(true, ordering: .relaxed)
            // Held until the test lets it go (at most 5 s), so it is still in flight when checked
            // however slow the machine is.
            for _ in 0..<1_000 where !released.load(ordering: .relaxed) {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return .text(200, "finished")
        }
        try server.start()
        let port = server.port
        let slow = Task { try await exchange(port: port, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n") }
        for _ in 0..<200 where !entered.load(ordering: .relaxed) {
            try await Task.sleep(for: .milliseconds(5))
        }
        let handlerStarted = entered.load(ordering: .relaxed)
        #expect(handlerStarted)
        #expect(server.inFlightCount == 1)
        let release = Task {
            try? await Task.sleep(for: .milliseconds(300))
            released.store(true, ordering: .relaxed)
        }
        await server.shutdown(gracePeriod: .seconds(5))
        await release.value
        let response = try await slow.value
        #expect(response.status == 200)
        #expect(response.bodyText == "finished")
        #expect(server.inFlightCount == 0)
        #expect(!server.isRunning)
        await #expect(throws: RawConnection.Failure.self) {
            try await blocking { _ = try RawConnection(port: port) }
        }
    }

    @Test func newConnectionsAreRefusedWhileDraining() async throws {
        let release = Atomic<Bool>(false)
        let server = HTTPServer(configuration: .init(threadCount: 2)) { _ in
            await waitFor(release)
            return .text(200, "done")
        }
        try server.start()
        let port = server.port
        let slow = Task { try await exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") }
        for _ in 0..<4_000 where server.inFlightCount == 0 {
            try await Task.sleep(for: .milliseconds(5))
        }
        let shutdown = Task { await server.shutdown(gracePeriod: .seconds(30)) }
        // Refused once shutdown begins, while the slow request is still in flight (bounded
        // generously: on a loaded machine the shutdown task may wait seconds for a thread).
        let refused = try await blocking { () -> Bool in
            for _ in 0..<2_000 {
                guard (try? RawConnection(port: port)) != nil else { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }
        #expect(refused)
        #expect(server.inFlightCount == 1)
        release.store(true, ordering: .relaxed)
        await shutdown.value
        let response = try await slow.value
        #expect(response.status == 200)
        #expect(response.header("Connection")?.lowercased() == "close")
    }

    @Test func requestOnAKeptAliveConnectionDuringTheDrainIsAnsweredWithClose() async throws {
        let release = Atomic<Bool>(false)
        let server = HTTPServer(configuration: .init(threadCount: 2)) { request in
            if request.path == "/slow" { await waitFor(release) }
            return .text(200, request.path)
        }
        try server.start()
        let port = server.port
        let steps = DrainSteps()
        // One client script on its own thread: a request, then (once the drain has begun) another
        // on the same kept-alive connection.
        let client = Task {
            try await blocking { () -> (RawConnection.Response, Bool) in
                let connection = try RawConnection(port: port)
                try connection.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try connection.readResponse()
                steps.firstAnswered.store(true, ordering: .relaxed)
                for _ in 0..<500 where !steps.draining.load(ordering: .relaxed) { Thread.sleep(forTimeInterval: 0.01) }
                try connection.send("GET /during HTTP/1.1\r\nHost: x\r\n\r\n")
                let answer = try connection.readResponse()
                return (answer, connection.waitForClose())
            }
        }
        let slow = Task { try await exchange(port: port, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n") }
        for _ in 0..<400 where server.inFlightCount == 0 || !steps.firstAnswered.load(ordering: .relaxed) {
            try await Task.sleep(for: .milliseconds(5))
        }
        let shutdown = Task { await server.shutdown(gracePeriod: .seconds(20)) }
        try await Task.sleep(for: .milliseconds(100))
        steps.draining.store(true, ordering: .relaxed)
        let (answer, closed) = try await client.value
        #expect(answer.status == 200)
        #expect(answer.bodyText == "/during")
        #expect(answer.header("Connection")?.lowercased() == "close")
        #expect(closed)
        release.store(true, ordering: .relaxed)
        await shutdown.value
        #expect(try await slow.value.status == 200)
    }

    @Test func handlerSlowerThanGracePeriodGets503() async throws {
        let release = Atomic<Bool>(false)
        let server = HTTPServer(configuration: .init(threadCount: 2)) { _ in
            await waitFor(release)
            return .text(200, "late")
        }
        try server.start()
        let port = server.port
        let slow = Task { try await exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") }
        for _ in 0..<400 where server.inFlightCount == 0 {
            try await Task.sleep(for: .milliseconds(5))
        }
        await server.shutdown(gracePeriod: .milliseconds(100))
        release.store(true, ordering: .relaxed)
        let response = try await slow.value
        #expect(response.status == 503)
        #expect(response.header("Content-Type") == "application/problem+json")
    }

    @Test(.enabled(if: ipv6LoopbackAvailable, "no IPv6 loopback on this machine"))
    func ipv6LoopbackIsServed() async throws {
        let configuration = HTTPServer.Configuration(host: "::1", threadCount: 1)
        try await withServer(configuration, handler: echoHandler) { server in
            let response = try await exchange(port: server.port, "GET /six HTTP/1.1\r\nHost: x\r\n\r\n", host: "::1")
            #expect(response.status == 200)
            #expect(try JSONDecoder().decode(EchoBody.self, from: Data(response.body)).remote == "::1")
        }
    }

    @Test func startTwiceFails() async throws {
        try await withServer(handler: echoHandler) { server in
            #expect(throws: HTTPServerError.self) { try server.start() }
        }
    }

    @Test func portInUseFails() async throws {
        try await withServer(handler: echoHandler) { server in
            let second = HTTPServer(configuration: .init(port: server.port, threadCount: 1), handler: echoHandler)
            #expect(throws: HTTPServerError.self) { try second.start() }
        }
    }

    @Test(arguments: [
        HTTPServer.Configuration(host: "example.com"),
        HTTPServer.Configuration(port: 70000),
        HTTPServer.Configuration(threadCount: 0),
        HTTPServer.Configuration(maxBodyBytes: -1),
        HTTPServer.Configuration(connectionMemoryLimit: 10),
    ])
    func invalidConfigurationIsRejected(_ configuration: HTTPServer.Configuration) {
        #expect(throws: HTTPServerError.self) { try configuration.validate() }
        let server = HTTPServer(configuration: configuration, handler: echoHandler)
        do {
            try server.start()
            Issue.record("start() accepted an invalid configuration")
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
    }

    @Test func serverDroppedWithoutShutdownStops() async throws {
        var server: HTTPServer? = HTTPServer(configuration: .init(threadCount: 1), handler: echoHandler)
        try server?.start()
        let port = try #require(server?.port)
        let response = try await exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response.status == 200)
        server = nil
        await #expect(throws: RawConnection.Failure.self) {
            try await blocking { _ = try RawConnection(port: port) }
        }
    }
}

/// The steps of a drain test, shared between the test and its client thread.
final class DrainSteps: Sendable {
    let firstAnswered = Atomic<Bool>(false)
    let draining = Atomic<Bool>(false)
}
