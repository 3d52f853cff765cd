import CurlTransport
import HTTP1Transport
import HTTPServer
import ServiceCore
import ServiceTesting
import Testing

/// The whole transport suite, sent from an HTTP server's network thread (the fast path) and from
/// a plain task (the fallback).
struct HTTP1TransportConformanceTests {
    @Test(arguments: TransportConformance.Check.allCases)
    func conformsOnTheCallersLoop(_ check: TransportConformance.Check) async throws {
        let curl = CurlTransport()
        let transport = HTTP1Transport(fallback: curl)
        do {
            try await EventLoopHost.with { host in
                try await host.onNetworkThread {
                    #expect(IOEventLoops.current != nil)
                    try await TransportConformance(transport: transport).run(check)
                }
            }
        } catch {
            await transport.shutdown()
            await curl.shutdown()
            throw error
        }
        await transport.shutdown()
        await curl.shutdown()
    }
}
