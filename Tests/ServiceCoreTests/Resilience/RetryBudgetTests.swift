import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct RetryBudgetTests {
    @Test func allowsTheShareOfFirstAttemptsPlusTheFloor() {
        let clock = VirtualClock(mode: .manual)
        let budget = RetryBudget(ratio: 0.2, floorPerSecond: 1, window: .seconds(10), clock: clock)
        for _ in 0..<100 { budget.recordFirstAttempt() }

        let granted = (0..<200).filter { _ in budget.tryRetry() }.count

        #expect(granted == 20 + 10)
    }

    @Test func oldAttemptsLeaveTheWindow() {
        let clock = VirtualClock(mode: .manual)
        let budget = RetryBudget(ratio: 0.5, floorPerSecond: 0, window: .seconds(10), clock: clock)
        for _ in 0..<10 { budget.recordFirstAttempt() }
        #expect(budget.tryRetry())

        clock.advance(by: .seconds(11))

        #expect(!budget.tryRetry())
    }

    @Test func withEveryAnswerFailingTheUpstreamSeesNoMoreThanTheBudgetAllows() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = MockTransport.always(.status(503))
        let budget = RetryBudget(ratio: 0.2, floorPerSecond: 0, window: .seconds(10), clock: clock)
        let settings = RetrySettings(maxAttempts: 3, baseDelay: .zero)
        let client = try shopClient(mock, [RetryMiddleware(settings: settings, budget: budget, clock: clock)])

        for index in 0..<100 {
            _ = await serviceErrorCode { _ = try await client.send(.item(id: "\(index)")) }
        }

        let retries = mock.requests.count - 100
        #expect(retries > 0)
        #expect(retries <= 20)
    }
}
