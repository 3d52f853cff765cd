import EventLoops
import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Synchronization
import Testing

/// What the callers sharing one upstream answer do with it, on one loop as the daemon runs them:
/// the body is decoded once for all of them, and the caller that made the call goes on first.
@Suite(.timeLimit(.minutes(2))) struct SharedAnswerTests {
    /// A decoded item that counts its decodings.
    private struct Item: Decodable, Equatable, Sendable {
        static let decodings = Atomic<Int>(0)
        let id: String

        init(from decoder: any Decoder) throws {
            Self.decodings.add(1, ordering: .relaxed)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
        }

        private enum CodingKeys: String, CodingKey { case id }
    }

    /// What went on, in order.
    private final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// A transport whose answer (`{"id":"1"}`) waits for the clock, so calls overlap.
    private func slowJSON(_ clock: VirtualClock) -> MockTransport {
        MockTransport.always(
            .respond { _ in
                try await clock.sleep(for: .seconds(1))
                return HTTPResponse(status: 200, body: Data(#"{"id":"1"}"#.utf8))
            })
    }

    @Test func aSharedAnswerIsDecodedOnceForAllItsCallers() async throws {
        let group = try EventLoopGroup(loopCount: 1, name: "test")
        let loop = group.loops[0]
        let clock = VirtualClock(mode: .manual)
        let mock = slowJSON(clock)
        let flight = SingleFlightMiddleware()
        let client = try shopClient(mock, [flight])
        let read = { Task(executorPreference: loop) { try await client.send(.item(id: "1"), as: Item.self) } }

        let leader = read()
        #expect(await eventually { clock.sleeperCount == 1 })
        let waiters = (0..<4).map { _ in read() }
        #expect(await eventually { flight.waiting == 4 })
        clock.advance(by: .seconds(1))

        for task in [leader] + waiters { #expect(try await task.value.id == "1") }
        #expect(Item.decodings.load(ordering: .relaxed) == 1)
        #expect(mock.requests.count == 1)
        await group.shutdown()
    }

    @Test func theCallerThatMadeTheCallGoesOnBeforeItsWaiters() async throws {
        let group = try EventLoopGroup(loopCount: 1, name: "test")
        let loop = group.loops[0]
        let clock = VirtualClock(mode: .manual)
        let flight = SingleFlightMiddleware()
        let client = try shopClient(slowJSON(clock), [flight])
        let log = Log()

        // The caller making the call awaits it as a part of a larger answer, as a screen does.
        let screen = Task(executorPreference: loop) {
            async let part = client.send(.item(id: "1")).status
            let status = try await part
            log.add("screen")
            return status
        }
        #expect(await eventually { clock.sleeperCount == 1 })
        let waiters = (0..<3).map { _ in
            Task(executorPreference: loop) {
                let status = try await client.send(.item(id: "1")).status
                log.add("waiter")
                return status
            }
        }
        #expect(await eventually { flight.waiting == 3 })
        clock.advance(by: .seconds(1))

        for task in [screen] + waiters { #expect(try await task.value == 200) }
        #expect(log.all == ["screen", "waiter", "waiter", "waiter"])
        await group.shutdown()
    }
}
