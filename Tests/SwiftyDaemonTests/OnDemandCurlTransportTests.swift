import EventLoops
import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@testable import SwiftyDaemon

/// The daemon's libcurl transport is made by the first request that needs it, or at once for a
/// module bound to `curl`; a daemon whose upstreams are all cleartext `http` never makes it.
@Suite(.timeLimit(.minutes(2)))
struct OnDemandCurlTransportTests {
    @Test func theFirstRequestMakesTheTransportAndAShutdownRefusesMore() async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "on-demand-test")
        try await withLoopbackServer(handler: TransportConformance.handle) { server in
            let transport = OnDemandCurlTransport(eventLoops: loops, makeNow: false)
            #expect(!transport.isMade)
            let response = try await transport.send(HTTPRequest(method: .get, url: server.url("/echo/first")))
            #expect(response.status == 200)
            #expect(transport.isMade)
            #expect(try await transport.send(HTTPRequest(method: .get, url: server.url("/echo/again"))).status == 200)
            await transport.shutdown()
            let refused = await #expect(throws: TransportError.self) {
                try await transport.send(HTTPRequest(method: .get, url: server.url("/echo/late")))
            }
            #expect(refused?.code == .shutDown)
        }
        await loops.shutdown()
    }

    @Test func aTransportNeverMadeShutsDownAndStaysUnmade() async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "on-demand-test")
        let transport = OnDemandCurlTransport(eventLoops: loops, makeNow: false)
        await transport.shutdown()
        #expect(!transport.isMade)
        let refused = await #expect(throws: TransportError.self) {
            try await transport.send(HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:9/never")!))
        }
        #expect(refused?.code == .shutDown)
        #expect(!transport.isMade)
        await loops.shutdown()
    }

    @Test func madeNowForAModuleBoundToCurl() async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "on-demand-test")
        let transport = OnDemandCurlTransport(eventLoops: loops, makeNow: true)
        #expect(transport.isMade)
        await transport.shutdown()
        await loops.shutdown()
    }

    @Test func aDaemonOnCleartextUpstreamsRunsNoLibcurlThread() async throws {
        // Sandbox mode: every module on `auto`, every upstream on cleartext http.
        let daemon = try await DaemonProcess.start()
        let app = AppClient(baseURL: daemon.baseURL)
        for _ in 0..<5 {
            #expect(try await app.get("/v1/home").status == 200)
        }
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task")
        let names = tasks.compactMap {
            try? String(contentsOfFile: "/proc/\(daemon.pid)/task/\($0)/comm", encoding: .utf8)
        }
        #expect(!names.isEmpty)
        #expect(!names.contains { $0.hasPrefix("swifty.curl") }, "threads: \(names)")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(20)) == 0)
    }
}
