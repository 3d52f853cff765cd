import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import UserModule

/// Turns `Authorization: Bearer <token>` into a user id through the user domain's
/// `introspect`, cached for a short time; concurrent requests with the same uncached token
/// share one introspection call.
struct Authenticator: Sendable {
    let users: UserClient
    let cache: any TokenCache
    /// How long an active token is trusted without asking again.
    let ttl: TimeInterval
    /// The introspection calls in flight, by token.
    let flights = IntrospectionFlights()
    /// Counts cache hits and misses (`swiftyd_token_cache_lookups_total`); none when `nil`.
    var metrics: Metrics? = nil

    /// The authenticated user's id, or the problem to answer; on the caller's executor (no hop).
    nonisolated(nonsending) func authenticate(_ request: ServerRequest) async -> Result<String, AppProblemResponse> {
        guard let header = request.headers["authorization"] else {
            return .failure(.unauthorized("This endpoint needs an Authorization: Bearer token.", error: .noToken))
        }
        guard let token = Self.bearerToken(header) else {
            return .failure(
                .unauthorized("The Authorization header must be \"Bearer <token>\".", error: .invalidRequest))
        }
        let now = Date()
        let cached = await cache.lookup(token, now: now)
        metrics?.tokenCacheLookups.increment(LabelValues(cached == nil ? "miss" : "hit"))
        if let cached {
            guard let user = cached.userID else {
                return .failure(.unauthorized("The bearer token is not active.", error: .invalidToken))
            }
            return .success(user)
        }
        let introspected = await flights.introspection(of: token) {
            let introspection = try await users.introspect(token: token)
            await cache.store(token, entry: Self.cacheEntry(for: introspection, now: Date(), ttl: ttl))
            return introspection
        }
        let introspection: TokenIntrospection
        switch introspected {
        case .success(let value):
            introspection = value
        case .failure(let error):
            return .failure(AppProblemResponse(problem: AppProblem.forUpstream(error)))
        }
        guard introspection.active, let user = introspection.userId, !user.isEmpty else {
            return .failure(.unauthorized("The bearer token is not active.", error: .invalidToken))
        }
        if let expiry = introspection.expiresAt, expiry <= now {
            return .failure(.unauthorized("The bearer token has expired.", error: .invalidToken))
        }
        return .success(user)
    }

    /// What the cache keeps for an introspection: the user until the token's expiry or `ttl`,
    /// whichever comes first; inactive and expired tokens are cached briefly too, so a bad token
    /// cannot hammer the upstream.
    static func cacheEntry(for introspection: TokenIntrospection, now: Date, ttl: TimeInterval) -> TokenCacheEntry {
        guard introspection.active, let user = introspection.userId, !user.isEmpty else {
            return TokenCacheEntry(userID: nil, expiresAt: now + min(ttl, 5))
        }
        guard let expiry = introspection.expiresAt else {
            return TokenCacheEntry(userID: user, expiresAt: now + ttl)
        }
        guard expiry > now else { return TokenCacheEntry(userID: nil, expiresAt: now + min(ttl, 5)) }
        return TokenCacheEntry(userID: user, expiresAt: min(now + ttl, expiry))
    }

    /// The token of a `Bearer` credential (RFC 6750 §2.1: scheme case-insensitive, token68).
    static func bearerToken(_ header: String) -> String? {
        var header = header
        return header.withUTF8 { bytes -> String? in
            let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
            // The scheme, then at least one space, then the token; spaces and tabs around both go.
            guard var start = bytes.firstIndex(where: { !isBlank($0) }) else { return nil }
            let scheme: StaticString = "bearer"
            let schemeLength = scheme.utf8CodeUnitCount
            guard bytes.count - start > schemeLength,
                scheme.withUTF8Buffer({ scheme in
                    (0..<schemeLength).allSatisfy { bytes[start + $0] | 0x20 == scheme[$0] }
                }),
                bytes[start + schemeLength] == 0x20
            else { return nil }
            start += schemeLength
            while start < bytes.count, isBlank(bytes[start]) { start += 1 }
            var end = bytes.count
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            let token = UnsafeBufferPointer(rebasing: bytes[start..<end])
            guard !token.isEmpty, token.count <= 4096, token.allSatisfy(isToken68) else { return nil }
            return String(decoding: token, as: UTF8.self)
        }
    }

    private static func isToken68(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
            UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default: false
        }
    }
}

/// A problem to answer, as an error value.
struct AppProblemResponse: Error, Sendable {
    var problem: AppProblem
    var extraHeaders: [(String, String)] = []

    /// What was wrong with the bearer token, for the 401's `WWW-Authenticate` challenge
    /// (RFC 6750 §3).
    enum BearerError {
        /// No token was sent: the challenge names no error.
        case noToken
        /// The `Authorization` field is not `Bearer <token>`.
        case invalidRequest
        /// The token is not active or has expired.
        case invalidToken

        /// The 401's extra fields, built once: a flood of requests without a valid token gets
        /// this answer, and building them for each would allocate the list (and, with an error,
        /// the challenge).
        var fields: [(String, String)] {
            switch self {
            case .noToken: Self.noTokenFields
            case .invalidRequest: Self.invalidRequestFields
            case .invalidToken: Self.invalidTokenFields
            }
        }

        private static let noTokenFields = [("WWW-Authenticate", #"Bearer realm="swiftyd""#)]
        private static let invalidRequestFields = [
            ("WWW-Authenticate", #"Bearer realm="swiftyd", error="invalid_request""#)
        ]
        private static let invalidTokenFields = [
            ("WWW-Authenticate", #"Bearer realm="swiftyd", error="invalid_token""#)
        ]
    }

    static func unauthorized(_ detail: String, error: BearerError) -> AppProblemResponse {
        AppProblemResponse(problem: AppProblem(401, detail), extraHeaders: error.fields)
    }

    var response: ServerResponse {
        var response = problem.response
        for (name, value) in extraHeaders { response.headers.add(name: name, value: value) }
        return response
    }
}
