import CurlTransport
import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import ServiceTesting
import Synchronization
import Testing

/// A burst of requests to a cleartext (`http`) upstream runs at once, one connection each, with the
/// default configuration, on the transport's own thread and on a caller's event loop.
struct CurlTransportBurstTests {
    /// How many requests the burst holds.
    private static let burst = 40

    /// Answers each request only once `burst` requests are in flight together (or after 10 s),
    /// with how many were in flight when it was released; `/warm` at once.
    private final class Barrier: Sendable {
        private let arrived = Atomic(0)

        func handle(_ request: ServerRequest) async -> ServerResponse {
            if request.path == "/warm" { return .text(200, "warm") }
            let count = arrived.add(1, ordering: .acquiringAndReleasing).newValue
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(10)
            var seen = count
            while seen < CurlTransportBurstTests.burst && clock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
                seen = arrived.load(ordering: .acquiring)
            }
            return .text(200, String(seen))
        }
    }

    private func sendBurst(_ transport: CurlTransport, to url: URL) async throws -> [String] {
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<Self.burst {
                group.addTask {
                    let response = try await transport.send(HTTPRequest(method: .get, url: url, timeout: .seconds(20)))
                    return String(decoding: response.body, as: UTF8.self)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test(arguments: [false, true], [false, true])
    func aBurstToACleartextUpstreamIsInFlightAtOnce(onEventLoop: Bool, withIdleConnection: Bool) async throws {
        let transport = CurlTransport(eventLoops: EventLoopHost.loops)
        let barrier = Barrier()
        do {
            try await withLoopbackServer(handler: barrier.handle) { upstream in
                let url = upstream.url("/burst")
                if withIdleConnection {
                    // One connection already known to be HTTP/1.1 and idle in the pool.
                    let warm = HTTPRequest(method: .get, url: upstream.url("/warm"), timeout: .seconds(20))
                    #expect(try await transport.send(warm).status == 200)
                }
                let answers: [String]
                if onEventLoop {
                    answers = try await EventLoopHost.run { try await sendBurst(transport, to: url) }
                } else {
                    answers = try await sendBurst(transport, to: url)
                }
                // Every request was released by the full burst, not by the 10 s limit.
                #expect(answers == Array(repeating: String(Self.burst), count: Self.burst))
            }
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }
}
