import Foundation
import HTTPFramingCorpus
import HTTPServer
import Synchronization
import Testing

/// The deadlines of ``HTTPServer/Configuration``: each one cuts a slow client off, and none
/// is reset by a client that sends a byte now and then.
struct DeadlineTests {
    @Test func headTricklingPastItsDeadlineGets408() async throws {
        let configuration = HTTPServer.Configuration(threadCount: 1, headTimeout: .milliseconds(300))
        try await withServer(configuration, handler: echoHandler) { server in
            let port = server.port
            let (status, elapsed, closed) = try await blocking { () -> (Int?, Duration, Bool) in
                let connection = try RawConnection(port: port)
                let clock = ContinuousClock()
                let start = clock.now
                // One byte every 50 ms: each byte would reset a per-byte idle timer.
                for byte in Array("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + Array(repeating: 0x61, count: 100) {
                    guard !connection.hasSomethingToRead(), (try? connection.send([byte])) != nil else { break }
                    if clock.now - start > .seconds(3) { break }
                    Thread.sleep(forTimeInterval: 0.05)
                }
                let response = try? connection.readResponse()
                return (response?.status, clock.now - start, connection.waitForClose())
            }
            #expect(status == 408)
            #expect(elapsed < .seconds(2), "the head deadline counts from the first byte")
            #expect(closed)
        }
    }

    @Test func bodyBelowTheMinimumRateGets408() async throws {
        let configuration = HTTPServer.Configuration(
            threadCount: 1, headTimeout: .milliseconds(200), minimumBodyRate: 1000)
        try await withServer(configuration, handler: echoHandler) { server in
            let port = server.port
            let status = try await blocking { () -> Int? in
                let connection = try RawConnection(port: port)
                try connection.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
                for _ in 0..<40 {
                    guard (try? connection.send("ab")) != nil else { break }
                    Thread.sleep(forTimeInterval: 0.05)
                }
                return (try? connection.readResponse())?.status
            }
            #expect(status == 408)
        }
    }

    @Test func idleKeptAliveConnectionIsClosed() async throws {
        let configuration = HTTPServer.Configuration(threadCount: 1, connectionTimeout: .milliseconds(200))
        try await withServer(configuration, handler: echoHandler) { server in
            let port = server.port
            let (status, closed, elapsed) = try await blocking { () -> (Int, Bool, Duration) in
                let connection = try RawConnection(port: port)
                try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                let status = try connection.readResponse().status
                let start = ContinuousClock.now
                return (status, connection.waitForClose(), ContinuousClock.now - start)
            }
            #expect(status == 200)
            #expect(closed)
            #expect(elapsed < .seconds(2))
        }
    }

    @Test func requestsPerConnectionAreCounted() async throws {
        let configuration = HTTPServer.Configuration(threadCount: 1, maxRequestsPerConnection: 2)
        try await withServer(configuration, handler: echoHandler) { server in
            let port = server.port
            let (first, second, closed) = try await blocking {
                let connection = try RawConnection(port: port)
                try connection.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
                let first = try connection.readResponse()
                let second = try connection.readResponse()
                return (first, second, connection.waitForClose())
            }
            #expect(first.status == 200 && first.header("Connection") == nil)
            #expect(second.status == 200 && second.header("Connection")?.lowercased() == "close")
            #expect(closed)
        }
    }

    @Test func clientLeavingCancelsTheHandler() async throws {
        let cancelled = Atomic<Bool>(false)
        let started = Atomic<Bool>(false)
        let server = HTTPServer(configuration: .init(threadCount: 1)) { _ in
            started.store(true, ordering: .relaxed)
            do {
                try await Task.sleep(for: .seconds(10))
            } catch {
                cancelled.store(true, ordering: .relaxed)
            }
            return .text(200, "late")
        }
        try server.start()
        let port = server.port
        try await blocking {
            let connection = try RawConnection(port: port)
            try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            for _ in 0..<200 where !started.load(ordering: .relaxed) { Thread.sleep(forTimeInterval: 0.01) }
        }
        for _ in 0..<300 where !cancelled.load(ordering: .relaxed) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let wasCancelled = cancelled.load(ordering: .relaxed)
        #expect(wasCancelled)
        #expect(server.inFlightCount == 0)
        await server.shutdown(gracePeriod: .seconds(1))
    }

    @Test func slowReaderGetsEveryAnswerInOrder() async throws {
        // Answers far larger than the pending-write bound: reading pauses, nothing is lost.
        let configuration = HTTPServer.Configuration(threadCount: 1, maxPendingWriteBytes: 64 << 10)
        let big = String(repeating: "z", count: 300 << 10)
        try await withServer(configuration, handler: { request in .text(200, request.path + big) }) { server in
            let port = server.port
            let paths = try await blocking { () -> [String] in
                let connection = try RawConnection(port: port)
                let requests = (0..<8).map { "GET /r\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
                try connection.send(requests)
                Thread.sleep(forTimeInterval: 0.2)
                return try (0..<8).map { _ in String(try connection.readResponse().bodyText.prefix(3)) }
            }
            #expect(paths == (0..<8).map { "/r\($0)" })
        }
    }
}
