import CurlTransport
import HTTP1Transport
import ServiceTesting
import Testing

/// The whole transport suite, sent from one of the transport's event loops: the fast path (and,
/// for the task the cancellation check starts, the fallback).
struct HTTP1TransportConformanceTests {
    @Test(arguments: TransportConformance.Check.allCases)
    func conformsOnTheCallersLoop(_ check: TransportConformance.Check) async throws {
        let curl = CurlTransport(eventLoops: EventLoopHost.loops)
        let transport = HTTP1Transport(eventLoops: EventLoopHost.loops, fallback: curl)
        var failure: (any Error)?
        do {
            try await TransportConformance(transport: transport).runOnEventLoop(check)
        } catch {
            failure = error
        }
        await transport.shutdown()
        await curl.shutdown()
        if let failure { throw failure }
    }
}
