import Foundation
import HTTPServer
import HTTPTypes
import Testing

@testable import SwiftyDaemon

struct AuthenticationTests {
    @Test(
        arguments: [
            ("Bearer sandbox-alice", "sandbox-alice"),
            ("bearer abc.DEF_123~+/=", "abc.DEF_123~+/="),
            ("Basic abc", nil),
            ("Bearer", nil),
            ("Bearer two words", nil),
            ("Bearer a\u{7}b", nil),
            ("BEARER  padded\t ", "padded"),
            ("  Bearer lead", "lead"),
            ("Bearerglued", nil),
            ("Bearer\tabc", nil),
            ("Bearer    ", nil),
            ("Bearer caf\u{E9}", nil),
        ] as [(String, String?)])
    func bearerTokens(header: String, token: String?) {
        #expect(Authenticator.bearerToken(header) == token)
    }

    /// A 401's challenge names what was wrong with the token in RFC 6750's form (§3), and nothing
    /// when none was sent.
    @Test(
        arguments: [
            (AppProblemResponse.BearerError.noToken, #"Bearer realm="swiftyd""#),
            (.invalidRequest, #"Bearer realm="swiftyd", error="invalid_request""#),
            (.invalidToken, #"Bearer realm="swiftyd", error="invalid_token""#),
        ] as [(AppProblemResponse.BearerError, String)])
    func challenges(error: AppProblemResponse.BearerError, challenge: String) {
        let response = AppProblemResponse.unauthorized("The bearer token is not active.", error: error).response
        #expect(response.status == 401)
        #expect(response.headers.values(for: "WWW-Authenticate") == [challenge])
        #expect(response.headers["Content-Type"] == "application/problem+json")
    }

    @Test func tokenCacheExpiresAndStaysBounded() async {
        let cache = InMemoryTokenCache(capacity: 2)
        let now = Date()
        await cache.store("a", entry: .init(userID: "alice", expiresAt: now + 60))
        await cache.store("b", entry: .init(userID: "bob", expiresAt: now + 1))
        #expect(await cache.lookup("a", now: now)?.userID == "alice")
        #expect(await cache.lookup("b", now: now + 2) == nil)
        await cache.store("c", entry: .init(userID: "carol", expiresAt: now + 30))
        await cache.store("d", entry: .init(userID: nil, expiresAt: now + 90))
        let alive = [
            await cache.lookup("a", now: now), await cache.lookup("c", now: now), await cache.lookup("d", now: now),
        ]
        #expect(alive.compactMap { $0 }.count == 2)
        #expect(await cache.lookup("d", now: now) == TokenCacheEntry(userID: nil, expiresAt: now + 90))
    }
}
