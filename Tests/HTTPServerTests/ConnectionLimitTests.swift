import Foundation
import HTTPFramingCorpus
import HTTPServer
import Testing

/// Connection limits at accept: past them a connection is closed at once and counted, and one
/// address cannot take the slots of another.
struct ConnectionLimitTests {
    @Test func perAddressLimitLeavesOtherAddressesServed() async throws {
        let configuration = HTTPServer.Configuration(threadCount: 1, perIPConnectionLimit: 2)
        try await withServer(configuration, handler: echoHandler) { server in
            let port = server.port
            let (thirdClosed, otherStatus) = try await blocking { () -> (Bool, Int?) in
                let first = try RawConnection(port: port)
                let second = try RawConnection(port: port)
                try first.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                try second.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try first.readResponse()
                _ = try second.readResponse()
                let third = try RawConnection(port: port, timeout: .seconds(2))
                let closed = third.waitForClose()
                let other = try RawConnection(port: port, source: "127.0.0.2")
                try other.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                return (closed, (try? other.readResponse())?.status)
            }
            #expect(thirdClosed)
            #expect(otherStatus == 200)
            #expect(server.refusedConnectionCount == 1)
        }
    }

    @Test func theDefaultsLetABenchmarkClientWith64ConnectionsThrough() async throws {
        try await withServer(HTTPServer.Configuration(threadCount: 2), handler: echoHandler) { server in
            let port = server.port
            let served = try await blocking { () -> Int in
                let connections = try (0..<64).map { _ in try RawConnection(port: port) }
                var served = 0
                for round in 0..<3 {
                    for connection in connections {
                        try connection.send("GET /r\(round) HTTP/1.1\r\nHost: x\r\n\r\n")
                    }
                    for connection in connections where (try? connection.readResponse())?.status == 200 {
                        served += 1
                    }
                }
                return served
            }
            #expect(served == 64 * 3)
            #expect(server.refusedConnectionCount == 0)
        }
    }

    @Test func manyTricklingConnectionsFromOneAddressLeaveAnotherServed() async throws {
        // Default limits: 1,500 connections from one address that trickle their heads.
        let configuration = HTTPServer.Configuration(threadCount: 2)
        try await withServer(configuration, handler: echoHandler) { server in
            let port = server.port
            let (status, elapsed) = try await blocking { () -> (Int?, Duration) in
                var tricklers: [RawConnection] = []
                for _ in 0..<1500 {
                    guard let connection = try? RawConnection(port: port, timeout: .seconds(1)) else { continue }
                    try? connection.send("G")
                    tricklers.append(connection)
                }
                for connection in tricklers { try? connection.send("E") }
                let start = ContinuousClock.now
                let other = try RawConnection(port: port, source: "127.0.0.2")
                try other.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                let status = (try? other.readResponse())?.status
                let elapsed = ContinuousClock.now - start
                for connection in tricklers { try? connection.send("T") }
                return (status, elapsed)
            }
            #expect(status == 200)
            #expect(elapsed < .seconds(5))
            #expect(server.refusedConnectionCount >= 1000)
        }
    }
}
