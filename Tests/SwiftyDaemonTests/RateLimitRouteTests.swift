import Foundation
import HTTPServer
import HTTPTypes
import ServiceTesting
import Testing

@testable import SwiftyDaemon

/// Rate limits on the app routes: counted per class, per user and per client address, answered
/// with the draft's fields, refused with 429 and `Retry-After` before the module is called.
struct RateLimitRouteTests {
    static let introspection = #"{"active":true,"userId":"alice","expiresAt":"2099-01-01T00:00:00Z"}"#
    static let wallet = #"{"userId":"alice","balance":{"amountMinor":5,"currency":"EUR"}}"#

    static func transport() -> MockTransport {
        MockTransport()
            .on(.operation("introspect", module: "UserModule"), .json(200, introspection))
            .on(.operation("wallet", module: "PaymentModule"), .json(200, wallet))
            .on(.operation("createCharge", module: "PaymentModule"), .status(422))
    }

    static func router(_ settings: RateLimitSettings, transport: MockTransport, clock: VirtualClock) throws -> Router {
        let limiter = RateLimiter(settings: settings, store: InMemoryRateLimitStore(clock: clock))
        return try AppAPI(
            modules: RouteGroupTests.factory(transport: transport), tokenCache: InMemoryTokenCache(), tokenTTL: 30,
            rateLimiter: limiter
        ).makeRouter()
    }

    static func payment(from address: String = "192.0.2.1") -> ServerRequest {
        var request = ServerRequest(
            method: "POST", target: "/v1/payments",
            headers: [
                "Authorization": "Bearer t", "Idempotency-Key": "k-\(UUID())", "Content-Type": "application/json",
            ],
            remoteAddress: address)
        request.body = Data(#"{"payee":"bob","amountMinor":1,"currency":"EUR"}"#.utf8)
        return request
    }

    @Test func paymentsPastTheDefaultLimitAre429WithRetryAfter() async throws {
        let transport = Self.transport()
        let clock = VirtualClock()
        let router = try Self.router(RateLimitSettings(), transport: transport, clock: clock)
        for index in 0..<5 {
            let response = await router.handle(Self.payment())
            #expect(response.status != 429)
            #expect(response.headers["RateLimit-Policy"] == #""payments-user";q=5;w=1"#)
            #expect(response.headers["RateLimit"] == "\"payments-user\";r=\(4 - index);t=1")
        }
        let refused = await router.handle(Self.payment())
        #expect(refused.status == 429)
        #expect(refused.headers["Retry-After"] == "1")
        #expect(refused.headers["RateLimit"] == #""payments-user";r=0;t=1"#)
        #expect(String(decoding: refused.body, as: UTF8.self).contains(#""code":"rate_limited""#))
        #expect(transport.exchanges.filter { $0.operation == "createCharge" }.count == 5)
        clock.advance(by: .milliseconds(200))
        #expect(await router.handle(Self.payment()).status != 429)
    }

    @Test func readsAreNotLimitedByDefaultAndCarryNoFields() async throws {
        let router = try Self.router(RateLimitSettings(), transport: Self.transport(), clock: VirtualClock())
        for _ in 0..<20 {
            let response = await router.handle(
                ServerRequest(method: "GET", target: "/v1/wallet", headers: ["Authorization": "Bearer t"]))
            #expect(response.status == 200)
            #expect(response.headers["RateLimit"] == nil)
        }
    }

    /// Per address, counted before the token is checked: made-up tokens from one address are
    /// limited without reaching the introspection upstream.
    @Test func aPerAddressLimitStopsAFloodOfBadTokens() async throws {
        var settings = RateLimitSettings()
        settings.reads.perAddress = RateLimitPolicy(name: "reads-address", quota: 3, window: .seconds(10))
        let transport = MockTransport()
            .on(.operation("introspect", module: "UserModule"), .json(200, #"{"active":false}"#))
        let router = try Self.router(settings, transport: transport, clock: VirtualClock())
        var statuses: [Int] = []
        for index in 0..<6 {
            let request = ServerRequest(
                method: "GET", target: "/v1/me", headers: ["Authorization": "Bearer bad-\(index)"],
                remoteAddress: "198.51.100.7")
            statuses.append(await router.handle(request).status)
        }
        #expect(statuses == [401, 401, 401, 429, 429, 429])
        #expect(transport.exchanges.count == 3)
        let other = ServerRequest(
            method: "GET", target: "/v1/me", headers: ["Authorization": "Bearer bad-x"], remoteAddress: "198.51.100.8")
        #expect(await router.handle(other).status == 401)
    }
}
