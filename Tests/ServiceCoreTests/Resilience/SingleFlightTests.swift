import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2))) struct SingleFlightTests {
    /// A transport whose answers wait for the clock, so calls overlap.
    private func slowMock(_ clock: VirtualClock) -> MockTransport {
        MockTransport.always(
            .respond { request in
                try await clock.sleep(for: .seconds(1))
                return HTTPResponse(status: 200, body: Data(request.urlString.utf8))
            })
    }

    /// Starts `count` reads of `.item(id: "1")`, the n-th acting as `user(n)`.
    private func reads(
        _ client: ServiceClient<ShopService>, count: Int, user: @escaping @Sendable (Int) -> String?
    ) -> [Task<Int, any Error>] {
        (0..<count).map { index in
            Task { try await ActingUser.$id.withValue(user(index)) { try await client.send(.item(id: "1")).status } }
        }
    }

    @Test func oneUsersIdenticalReadsReachTheTransportOnce() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = slowMock(clock)
        let flight = SingleFlightMiddleware()
        let client = try shopClient(mock, [flight])

        let tasks = reads(client, count: 100, user: { _ in "alice" })
        #expect(await eventually { clock.sleeperCount == 1 && flight.waiting == 99 })
        clock.advance(by: .seconds(1))

        for task in tasks { #expect(try await task.value == 200) }
        #expect(mock.requests.count == 1)
    }

    @Test func twoUsersNeverShare() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = slowMock(clock)
        let flight = SingleFlightMiddleware()
        let client = try shopClient(mock, [flight])

        let tasks = reads(client, count: 100, user: { $0 % 2 == 0 ? "alice" : "bob" })
        #expect(await eventually { clock.sleeperCount == 2 && flight.waiting == 98 })
        clock.advance(by: .seconds(1))

        for task in tasks { #expect(try await task.value == 200) }
        #expect(mock.requests.count == 2)
    }

    @Test func writesAreNeverShared() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = slowMock(clock)
        let client = try shopClient(mock, [SingleFlightMiddleware()])

        let tasks = (0..<10).map { _ in
            Task { try await client.send(.charge(amount: 1, idempotencyKey: "k")).status }
        }
        #expect(await eventually { clock.sleeperCount == 10 })
        clock.advance(by: .seconds(1))

        for task in tasks { #expect(try await task.value == 200) }
        #expect(mock.requests.count == 10)
    }

    /// Starts one read that makes the call, then nine that wait for it.
    private func leaderAndWaiters(
        _ client: ServiceClient<ShopService>, _ clock: VirtualClock, _ flight: SingleFlightMiddleware
    ) async -> [Task<Int, any Error>] {
        let leader = reads(client, count: 1, user: { _ in "alice" })
        #expect(await eventually { clock.sleeperCount == 1 })
        let waiters = reads(client, count: 9, user: { _ in "alice" })
        #expect(await eventually { flight.waiting == 9 })
        return leader + waiters
    }

    @Test func aCancelledWaiterDoesNotCancelTheOthers() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = slowMock(clock)
        let flight = SingleFlightMiddleware()
        let client = try shopClient(mock, [flight])
        let tasks = await leaderAndWaiters(client, clock, flight)

        for task in tasks[1..<5] { task.cancel() }
        #expect(await eventually { flight.waiting == 5 })
        clock.advance(by: .seconds(1))

        for task in [tasks[0]] + tasks[5...] { #expect(try await task.value == 200) }
        for task in tasks[1..<5] {
            let result = await task.result
            #expect(throws: (any Error).self) { try result.get() }
        }
        #expect(mock.requests.count == 1)
    }

    @Test func whenTheCallerMakingTheCallIsCancelledTheWaitersStillGetAnAnswer() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = slowMock(clock)
        let flight = SingleFlightMiddleware()
        let client = try shopClient(mock, [flight])
        let tasks = await leaderAndWaiters(client, clock, flight)

        tasks[0].cancel()
        let leaderResult = await tasks[0].result
        #expect(throws: (any Error).self) { try leaderResult.get() }
        #expect(await eventually { clock.sleeperCount == 1 && flight.waiting == 8 })
        clock.advance(by: .seconds(1))

        for task in tasks.dropFirst() { #expect(try await task.value == 200) }
        #expect(mock.requests.count == 2)
    }

    @Test func anExplicitUserKeyIsUsed() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = slowMock(clock)
        let flight = SingleFlightMiddleware(userKey: { request, _ in request.headers["X-User"] })
        let client = try shopClient(mock, [flight])

        let tasks = (0..<4).map { _ in Task { try await client.send(.item(id: "1")).status } }
        #expect(await eventually { clock.sleeperCount == 1 && flight.waiting == 3 })
        clock.advance(by: .seconds(1))
        for task in tasks { #expect(try await task.value == 200) }
        #expect(mock.requests.count == 1)
    }

    /// The middleware keeps each call in flight in one of 1 024 slots picked by a hash; with more
    /// distinct calls in flight than slots, some share a slot, and each must still get its own
    /// answer from its own upstream call.
    @Test func moreDistinctReadsThanSlotsEachGetTheirOwnAnswer() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = slowMock(clock)
        let flight = SingleFlightMiddleware()
        let client = try shopClient(mock, [flight])
        let count = 1_500

        let tasks = (0..<count).map { index in
            Task {
                try await ActingUser.$id.withValue("alice") {
                    String(decoding: try await client.send(.item(id: "\(index)")).body, as: UTF8.self)
                }
            }
        }
        #expect(await eventually { clock.sleeperCount == count })
        #expect(flight.waiting == 0)
        clock.advance(by: .seconds(1))

        for (index, task) in tasks.enumerated() { #expect(try await task.value.hasSuffix("/v1/items/\(index)")) }
        #expect(mock.requests.count == count)
    }
}
