import AppLogging
import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct ConcurrencyLimitTests {
    private let request = HTTPRequest(method: .get, url: URL(string: "https://shop.test/v1/items/1")!)
    private let context = MiddlewareContext(
        module: "ShopModule", operation: "item", requestID: "r", policy: .default(for: .get), logger: memoryLogger().0)

    @Test func pastTheLimitACallFailsAtOnce() async throws {
        let limit = ConcurrencyLimitMiddleware(limit: 2)
        let request = request
        let context = context
        // Each call is still in flight while the next one is made: the third is one too many.
        let response = try await limit.intercept(request, context: context) { request, context in
            try await limit.intercept(request, context: context) { request, context in
                #expect(limit.inFlight == 2)
                do {
                    _ = try await limit.intercept(request, context: context) { _, _ in HTTPResponse(status: 200) }
                    Issue.record("expected the limit to refuse")
                } catch let error as ServiceError {
                    #expect(error.code == .overloaded)
                    #expect(
                        error.underlying as? ResilienceRejection
                            == ResilienceRejection(
                                module: "ShopModule", reason: .concurrencyLimit, retryAfter: .seconds(1))
                    )
                }
                return HTTPResponse(status: 204)
            }
        }

        #expect(response.status == 204)
        #expect(limit.inFlight == 0)
    }
}
