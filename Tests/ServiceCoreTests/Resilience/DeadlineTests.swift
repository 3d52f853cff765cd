import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct DeadlineTests {
    @Test func anAttemptsTimeoutIsTheSmallerOfTheCaseTimeoutAndTheTimeLeft() async throws {
        let clock = VirtualClock()
        let mock = MockTransport.alwaysOK()
        let client = try shopClient(mock, [DeadlineMiddleware(clock: clock)])

        try await RequestDeadline.run(within: .seconds(3), clock: clock) {
            _ = try await client.send(.slow(timeout: .seconds(10)))
            _ = try await client.send(.slow(timeout: .seconds(1)))
        }

        #expect(mock.requests.map(\.timeout) == [.seconds(3), .seconds(1)])
    }

    @Test func noAttemptStartsWhenTooLittleIsLeft() async throws {
        let clock = VirtualClock()
        let mock = MockTransport.alwaysOK()
        let client = try shopClient(mock, [DeadlineMiddleware(clock: clock)])

        let code = await serviceErrorCode {
            try await RequestDeadline.run(within: .milliseconds(10), clock: clock) {
                _ = try await client.send(.item(id: "a"))
            }
        }

        #expect(code == .deadlineExceeded)
        #expect(mock.requests.isEmpty)
    }

    @Test func theDeadlineIsNeverOverrunHoweverManyAttempts() async throws {
        let clock = VirtualClock()
        // Every attempt takes its whole timeout and then times out.
        let mock = MockTransport.always(
            .respond { request in
                clock.advance(by: request.timeout ?? .seconds(10))
                throw TransportError(.timedOut, "scripted")
            })
        let settings = RetrySettings(maxAttempts: 20, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        let client = try shopClient(
            mock,
            [DeadlineMiddleware(clock: clock), RetryMiddleware(settings: settings, clock: clock, random: .system)]
        )
        let start = clock.now

        let code = await serviceErrorCode {
            try await RequestDeadline.run(within: .seconds(2), clock: clock) {
                _ = try await client.send(.slow(timeout: .milliseconds(700)))
            }
        }

        #expect(code == .timeout)
        #expect(mock.requests.count >= 2)
        #expect(clock.now - start <= .seconds(2))
        #expect(mock.requests.allSatisfy { ($0.timeout ?? .zero) <= .milliseconds(700) })
    }

    @Test func anEnclosingSoonerDeadlineStays() async throws {
        let clock = VirtualClock()
        let inner = await RequestDeadline.run(within: .seconds(1), clock: clock) {
            await RequestDeadline.run(within: .seconds(5), clock: clock) { RequestDeadline.current }
        }
        #expect(inner == RequestDeadline(expires: .seconds(1)))
    }

    @Test func cancellingTheAppRequestCancelsEveryCall() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = MockTransport.always(
            .respond { _ in
                try await clock.sleep(for: .seconds(60))
                return HTTPResponse(status: 200)
            })
        let client = try shopClient(mock, [DeadlineMiddleware(clock: clock)])

        let request = Task {
            await RequestDeadline.run(within: .seconds(30), clock: clock) {
                async let first = serviceErrorCode { _ = try await client.send(.item(id: "a")) }
                async let second = serviceErrorCode { _ = try await client.send(.item(id: "b")) }
                return await [first, second]
            }
        }
        #expect(await eventually { clock.sleeperCount == 2 })
        request.cancel()

        let codes = await request.value
        #expect(codes == [.cancelled, .cancelled])
        #expect(clock.sleeperCount == 0)
    }
}
