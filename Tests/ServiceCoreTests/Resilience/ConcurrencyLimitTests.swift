import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@Suite struct ConcurrencyLimitTests {
    @Test func pastTheLimitACallFailsAtOnce() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = MockTransport.always(
            .respond { _ in
                try await clock.sleep(for: .seconds(1))
                return HTTPResponse(status: 200)
            })
        let limit = ConcurrencyLimitMiddleware(limit: 2)
        let client = try shopClient(mock, [limit])

        let held = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<2 { group.addTask { try await client.send(.item(id: "\(index)")).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        #expect(await eventually { clock.sleeperCount == 2 })
        #expect(limit.inFlight == 2)

        do {
            _ = try await client.send(.item(id: "x"))
            Issue.record("expected the limit to refuse")
        } catch let error as ServiceError {
            #expect(error.code == .overloaded)
            #expect(error.underlying as? ResilienceRejection
                == ResilienceRejection(module: "ShopModule", reason: .concurrencyLimit, retryAfter: .seconds(1)))
        }
        #expect(mock.requests.count == 2)

        clock.advance(by: .seconds(1))
        #expect(try await held.value == [200, 200])
        #expect(limit.inFlight == 0)
        _ = try await client.send(.item(id: "y"))
    }
}
