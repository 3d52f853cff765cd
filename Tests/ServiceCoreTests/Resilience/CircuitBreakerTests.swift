import AppLogging
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct CircuitBreakerTests {
    private let settings = CircuitBreakerSettings(
        failureRatio: 0.5, minimumCalls: 4, window: .seconds(10), openDuration: .seconds(5))

    @Test func opensWithinItsWindowFailsFastHalfOpensAndCloses() {
        let clock = VirtualClock(mode: .manual)
        let (logger, log) = memoryLogger()
        let breaker = CircuitBreaker(
            module: "ShopModule", host: "https://a.test", settings: settings, clock: clock, logger: logger)

        for _ in 0..<3 { breaker.record(success: false, probe: false) }
        #expect(breaker.state == .closed)  // below the minimum call count
        breaker.record(success: false, probe: false)
        #expect(breaker.state == .open)
        #expect(breaker.acquire() == .rejected(retryAfter: .seconds(5)))

        clock.advance(by: .seconds(2))
        #expect(breaker.acquire() == .rejected(retryAfter: .seconds(3)))
        clock.advance(by: .seconds(3))
        #expect(breaker.state == .halfOpen)
        #expect(breaker.acquire() == .allowed(probe: true))
        #expect(breaker.acquire() == .rejected(retryAfter: .seconds(1)))  // one probe at a time

        breaker.record(success: true, probe: true)
        #expect(breaker.state == .closed)
        #expect(breaker.acquire() == .allowed(probe: false))

        let transitions = log.records.map(\.message)
        #expect(
            transitions == [
                "circuit breaker closed -> open", "circuit breaker open -> half-open",
                "circuit breaker half-open -> closed",
            ])
    }

    @Test func aFailedProbeReopens() {
        let clock = VirtualClock(mode: .manual)
        let breaker = CircuitBreaker(
            module: "ShopModule", host: "h", settings: settings, clock: clock, logger: memoryLogger().0)
        for _ in 0..<4 { breaker.record(success: false, probe: false) }
        clock.advance(by: .seconds(5))
        #expect(breaker.acquire() == .allowed(probe: true))

        breaker.record(success: false, probe: true)

        #expect(breaker.state == .open)
        #expect(breaker.acquire() == .rejected(retryAfter: .seconds(5)))
    }

    @Test func staysClosedBelowTheRatioAndForgetsOldFailures() {
        let clock = VirtualClock(mode: .manual)
        let breaker = CircuitBreaker(
            module: "ShopModule", host: "h", settings: settings, clock: clock, logger: memoryLogger().0)
        for _ in 0..<3 { breaker.record(success: true, probe: false) }
        for _ in 0..<2 { breaker.record(success: false, probe: false) }
        #expect(breaker.state == .closed)  // 2 of 5

        clock.advance(by: .seconds(11))
        for _ in 0..<3 { breaker.record(success: false, probe: false) }
        #expect(breaker.state == .closed)  // 3 calls in the window, below the minimum
        breaker.record(success: false, probe: false)
        #expect(breaker.state == .open)
    }

    @Test func aDownDomainFailsFastWithoutReachingTheUpstreamThenRecovers() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = MockTransport.always(.status(503))
        let failover = FailoverMiddleware(
            module: "ShopModule", baseURLs: ["https://shop.test"], settings: settings, clock: clock,
            logger: memoryLogger().0)
        let client = try shopClient(mock, [failover])

        for _ in 0..<4 { _ = await serviceErrorCode { _ = try await client.send(.item(id: "a")) } }
        #expect(failover.states.map(\.state) == [.open])

        do {
            _ = try await client.send(.item(id: "a"))
            Issue.record("expected the breaker to refuse")
        } catch let error as ServiceError {
            #expect(error.code == .circuitOpen)
            #expect(error.module == "ShopModule")
            let rejection = try #require(error.underlying as? ResilienceRejection)
            #expect(rejection.reason == .circuitOpen)
            #expect(rejection.retryAfterSeconds == 5)
        }
        #expect(mock.requests.count == 4)

        mock.fallback = .ok
        clock.advance(by: .seconds(5))
        _ = try await client.send(.item(id: "a"))
        #expect(failover.states.map(\.state) == [.closed])
        #expect(mock.requests.count == 5)
    }

    @Test func clientErrorsDoNotCountAsFailures() async throws {
        let clock = VirtualClock(mode: .manual)
        let mock = MockTransport.always(.status(404))
        let failover = FailoverMiddleware(
            module: "ShopModule", baseURLs: ["https://shop.test"], settings: settings, clock: clock,
            logger: memoryLogger().0)
        let client = try shopClient(mock, [failover])

        for _ in 0..<10 { _ = await serviceErrorCode { _ = try await client.send(.item(id: "a")) } }

        #expect(failover.states.map(\.state) == [.closed])
    }
}
