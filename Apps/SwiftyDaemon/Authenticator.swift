import Foundation
import HTTPServer
import UserModule

/// Turns `Authorization: Bearer <token>` into a user id through the user domain's
/// `introspect`, cached for a short time.
struct Authenticator: Sendable {
    let users: UserClient
    let cache: any TokenCache
    /// How long an active token is trusted without asking again.
    let ttl: TimeInterval

    /// The authenticated user's id, or the problem to answer.
    func authenticate(_ request: ServerRequest) async -> Result<String, AppProblemResponse> {
        guard let header = request.headers["authorization"] else {
            return .failure(.unauthorized("This endpoint needs an Authorization: Bearer token.", error: nil))
        }
        guard let token = Self.bearerToken(header) else {
            return .failure(
                .unauthorized("The Authorization header must be \"Bearer <token>\".", error: "invalid_request"))
        }
        let now = Date()
        if let cached = await cache.lookup(token, now: now) {
            guard let user = cached.userID else {
                return .failure(.unauthorized("The bearer token is not active.", error: "invalid_token"))
            }
            return .success(user)
        }
        let introspection: TokenIntrospection
        do {
            introspection = try await users.introspect(token: token)
        } catch {
            return .failure(AppProblemResponse(problem: AppProblem.forUpstream(error)))
        }
        guard introspection.active, let user = introspection.userId, !user.isEmpty else {
            // Inactive answers are cached briefly too, so a bad token cannot hammer the upstream.
            await cache.store(token, entry: TokenCacheEntry(userID: nil, expiresAt: now + min(ttl, 5)))
            return .failure(.unauthorized("The bearer token is not active.", error: "invalid_token"))
        }
        var until = now + ttl
        if let expiry = introspection.expiresAt {
            guard expiry > now else {
                return .failure(.unauthorized("The bearer token has expired.", error: "invalid_token"))
            }
            until = min(until, expiry)
        }
        await cache.store(token, entry: TokenCacheEntry(userID: user, expiresAt: until))
        return .success(user)
    }

    /// The token of a `Bearer` credential (RFC 6750 §2.1: scheme case-insensitive, token68).
    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, token.utf8.count <= 4096, token.utf8.allSatisfy(token68.contains) else { return nil }
        return token
    }

    /// The characters of RFC 6750's `b64token`, built once.
    private static let token68 = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=".utf8)
}

/// A problem to answer, as an error value.
struct AppProblemResponse: Error, Sendable {
    var problem: AppProblem
    var extraHeaders: [(String, String)] = []

    static func unauthorized(_ detail: String, error: String?) -> AppProblemResponse {
        var challenge = "Bearer realm=\"swiftyd\""
        if let error { challenge += ", error=\"\(error)\"" }
        return AppProblemResponse(problem: AppProblem(401, detail), extraHeaders: [("WWW-Authenticate", challenge)])
    }

    var response: ServerResponse {
        var response = problem.response
        for (name, value) in extraHeaders { response.headers.add(name: name, value: value) }
        return response
    }
}
