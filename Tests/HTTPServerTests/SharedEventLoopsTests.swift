import EventLoops
import Foundation
import HTTPFramingCorpus
import HTTPServer
import Testing

/// A server given an `EventLoopGroup` runs on those loops and leaves them running when it stops.
struct SharedEventLoopsTests {
    @Test func handlersRunOnTheGivenLoopsWhichOutliveTheServer() async throws {
        let loops = try EventLoopGroup(loopCount: 2, name: "shared")
        for round in 0..<2 {
            // Two servers in turn on one group: each runs there, and stopping one stops no loop.
            let server = HTTPServer(configuration: .init(threadCount: 1), eventLoops: loops) { _ in
                .text(loops.loopOfCaller == nil ? 500 : 200, "round \(round)")
            }
            try server.start()
            for _ in 0..<4 {
                let response = try await exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(response.status == 200)
            }
            let onLoop = try await server.onNetworkThread(1) { loops.loops[1].isCurrent }
            #expect(onLoop)
            await server.shutdown(gracePeriod: .milliseconds(100))
            let stillRunning = await withCheckedContinuation { continuation in
                let accepted = loops.loops[0].execute { continuation.resume(returning: true) }
                if !accepted { continuation.resume(returning: false) }
            }
            #expect(stillRunning)
        }
        await loops.shutdown()
    }
}
