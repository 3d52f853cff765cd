import Foundation
import HTTPFramingCorpus
import Synchronization
import Testing

@testable import HTTPServer

/// Every request context is released exactly once, whatever happens to the request.
struct ResourceTests {
    /// One way a request can go; each leaves no context behind.
    enum Scenario: String, CaseIterable, Sendable {
        case keepAliveAndBody, rejectedHead, chunkedTooLarge, clientLeavesMidBody, clientLeavesDuringHandler

        func run(port: Int) throws {
            let connection = try RawConnection(port: port)
            switch self {
            case .keepAliveAndBody:
                try connection.send(
                    "GET / HTTP/1.1\r\nHost: x\r\n\r\nPOST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi"
                )
                _ = try connection.readResponse()
                _ = try connection.readResponse()
            case .rejectedHead:
                try connection.send("GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n")
                _ = try connection.readResponse()
            case .chunkedTooLarge:
                try connection.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n50\r\n")
                try connection.send(String(repeating: "z", count: 80) + "\r\n0\r\n\r\n")
                _ = try connection.readResponse()
            case .clientLeavesMidBody:
                try connection.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n0123456789")
            case .clientLeavesDuringHandler:
                try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            }
        }
    }

    @Test(arguments: Scenario.allCases)
    func contextsAreReleased(_ scenario: Scenario) async throws {
        // A short idle timeout: a connection the client leaves open is closed soon.
        let configuration = HTTPServer.Configuration(
            threadCount: 2,
            connectionTimeout: .seconds(1),
            maxBodyBytes: 64
        )
        let server = HTTPServer(configuration: configuration) { request in
            if request.path == "/slow" { try? await Task.sleep(for: .milliseconds(150)) }
            return .text(200, "ok")
        }
        try server.start()
        let port = server.port
        try await blocking { try scenario.run(port: port) }
        try await waitUntil { server.inFlightCount == 0 && server.liveConnections == 0 }
        #expect(server.inFlightCount == 0)
        #expect(server.liveConnections == 0)
        await server.shutdown(gracePeriod: .seconds(1))
        #expect(server.liveConnections == 0)
    }

    @Test func contextsAreReleasedWhenShutdownAbandonsHandlers() async throws {
        let release = Atomic<Bool>(false)
        let server = HTTPServer(configuration: .init(threadCount: 2)) { _ in
            await waitFor(release)
            return .text(200, "late")
        }
        try server.start()
        let port = server.port
        let requests = (0..<5).map { _ in
            Task { try? await exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") }
        }
        try await waitUntil { server.inFlightCount == 5 }
        #expect(server.inFlightCount == 5)
        await server.shutdown(gracePeriod: .milliseconds(50))
        release.store(true, ordering: .relaxed)
        for request in requests { #expect(await request.value?.status == 503) }
        #expect(server.inFlightCount == 0)
        try await waitUntil { server.liveConnections == 0 }
        #expect(server.liveConnections == 0)
    }

    @Test func handlerPastItsTimeoutGets504() async throws {
        let configuration = HTTPServer.Configuration(threadCount: 2, handlerTimeout: .milliseconds(200))
        let release = Atomic<Bool>(false)
        try await withServer(
            configuration,
            handler: { request in
                if request.path == "/stuck" { await waitFor(release) }
                return .text(200, "ok")
            }
        ) { server in
            let stuck = try await exchange(port: server.port, "GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n")
            release.store(true, ordering: .relaxed)
            #expect(stuck.status == 504)
            #expect(stuck.header("Content-Type") == "application/problem+json")
            let fine = try await exchange(port: server.port, "GET /fine HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(fine.status == 200)
        }
    }

    @Test func expectContinueIsHonoured() async throws {
        let configuration = HTTPServer.Configuration(threadCount: 2, maxBodyBytes: 64)
        try await withServer(configuration, handler: echoHandler) { server in
            let port = server.port
            let (interim, final, refused) = try await blocking {
                let connection = try RawConnection(port: port)
                try connection.send("POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
                let interim = try connection.readResponse()
                try connection.send("hello")
                let final = try connection.readResponse()
                let other = try RawConnection(port: port)
                try other.send("POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\nExpect: 100-continue\r\n\r\n")
                return (interim, final, try other.readResponse())
            }
            #expect(interim.status == 100)
            #expect(final.status == 200)
            #expect(try JSONDecoder().decode(EchoBody.self, from: Data(final.body)).body == "hello")
            #expect(refused.status == 413)
        }
    }
}
