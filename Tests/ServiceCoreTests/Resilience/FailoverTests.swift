import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct FailoverTests {
    /// Answers per host: the first base URL refuses connections, the second answers 200.
    private func mock() -> MockTransport {
        MockTransport.always(
            .respond { request in
                guard request.urlString.hasPrefix("https://b.test") else {
                    throw TransportError(.connectionFailed, "refused")
                }
                return HTTPResponse(status: 200, body: Data(request.urlString.utf8))
            })
    }

    @Test func aConnectionFailureMovesTheCallToTheNextHost() async throws {
        let mock = mock()
        let failover = FailoverMiddleware(
            module: "ShopModule", baseURLs: ["https://shop.test", "https://b.test/"], clock: VirtualClock(),
            logger: memoryLogger().0)
        let client = try shopClient(mock, [failover])

        let response = try await client.send(.item(id: "7"))

        #expect(String(decoding: response.body, as: UTF8.self) == "https://b.test/v1/items/7")
        #expect(mock.requests.map(\.urlString) == ["https://shop.test/v1/items/7", "https://b.test/v1/items/7"])
    }

    @Test func aHostWithAnOpenBreakerIsSkipped() async throws {
        let mock = mock()
        let settings = CircuitBreakerSettings(minimumCalls: 2)
        let failover = FailoverMiddleware(
            module: "ShopModule", baseURLs: ["https://shop.test", "https://b.test"], settings: settings,
            clock: VirtualClock(mode: .manual), logger: memoryLogger().0)
        let client = try shopClient(mock, [failover])

        for _ in 0..<2 { _ = try await client.send(.item(id: "1")) }
        #expect(failover.states.map(\.state) == [.open, .closed])
        _ = try await client.send(.item(id: "2"))

        #expect(mock.requests.count == 5)
        #expect(mock.requests.last?.urlString == "https://b.test/v1/items/2")
    }

    @Test func otherFailuresDoNotMoveTheCall() async throws {
        let mock = MockTransport.failing(.timedOut)
        let failover = FailoverMiddleware(
            module: "ShopModule", baseURLs: ["https://shop.test", "https://b.test"], clock: VirtualClock(),
            logger: memoryLogger().0)
        let client = try shopClient(mock, [failover])

        let code = await serviceErrorCode { _ = try await client.send(.item(id: "1")) }

        #expect(code == .timeout)
        #expect(mock.requests.count == 1)
    }
}
