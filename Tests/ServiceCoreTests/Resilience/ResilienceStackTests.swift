import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct ResilienceStackTests {
    @Test func theChainIsInTheDocumentedOrder() {
        let stack = ResilienceStack(
            module: "ShopModule", baseURL: "https://shop.test", clock: VirtualClock(), logger: memoryLogger().0)
        let metrics = SignatureStamp()
        let signing = SignatureStamp()

        let chain = stack.middlewares(metrics: metrics, signing: signing)

        #expect(chain.count == 7)
        #expect(chain.first as? SignatureStamp === metrics)
        #expect(chain[1] is SingleFlightMiddleware)
        #expect(chain[2] is DeadlineMiddleware)
        #expect(chain[3] is ConcurrencyLimitMiddleware)
        #expect(chain[4] is RetryMiddleware)
        #expect(chain[5] is FailoverMiddleware)
        #expect(chain.last as? SignatureStamp === signing)
    }

    @Test func theWholeChainRetriesAndSignsEachAttempt() async throws {
        let clock = VirtualClock()
        let stack = ResilienceStack(
            module: "ShopModule", baseURL: "https://shop.test", clock: clock, logger: memoryLogger().0)
        let signing = SignatureStamp()
        let mock = MockTransport().on(.any, .status(503), .error(.connectionClosed), .ok)
        let client = try shopClient(mock, stack.middlewares(signing: signing))

        let response = try await ActingUser.$id.withValue("alice") { try await client.send(.item(id: "1")) }

        #expect(response.status == 200)
        #expect(signing.stamped == 3)
        #expect(stack.breakerStates.map(\.state) == [.closed])
        #expect(stack.concurrencyLimit.inFlight == 0)
    }
}
