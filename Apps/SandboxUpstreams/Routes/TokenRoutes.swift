import Foundation
import HTTPServer
import HTTPTypes
import JSON

/// The sandbox's OAuth 2.0 token endpoint, `POST /oauth/token`, for the client credentials grant
/// (RFC 6749 §4.4): a form body with `grant_type=client_credentials`, the client authenticated
/// with HTTP Basic (§2.3.1), answered with a short-lived bearer token (§5.1) or an error (§5.2).
enum TokenRoutes {
    /// The endpoint's path.
    static let path = "/oauth/token"

    /// The token endpoint's routes.
    static func router(issuer: TokenIssuer) -> Router {
        var table = RouteTable()
        table.add("POST", path) { request, _ in answer(request, issuer: issuer) }
        return table.router
    }

    private struct TokenAnswer: Encodable {
        var accessToken: String
        var tokenType = "Bearer"
        var expiresIn: Int

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
        }
    }

    private struct ErrorAnswer: Encodable {
        var error: String
        var errorDescription: String

        enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }

    /// The answer to one token request.
    static func answer(_ request: ServerRequest, issuer: TokenIssuer) -> ServerResponse {
        guard let client = basicCredentials(request.headers["authorization"]) else {
            return oauthError(
                401, "invalid_client", "authenticate the client with HTTP Basic",
                challenge: "Basic realm=\"sandbox\"")
        }
        guard issuer.authenticates(clientID: client.id, secret: client.secret) else {
            return oauthError(
                401, "invalid_client", "unknown client or wrong secret", challenge: "Basic realm=\"sandbox\"")
        }
        let mediaType = request.headers["content-type"].flatMap(MediaType.init)
        guard mediaType?.essence == "application/x-www-form-urlencoded" else {
            return oauthError(400, "invalid_request", "the body must be application/x-www-form-urlencoded")
        }
        // In a form body `+` stands for a space (the query parser takes it literally).
        let form = String(decoding: request.body, as: UTF8.self).replacingOccurrences(of: "+", with: "%20")
        let grantType: String?
        do {
            grantType = try RequestQuery(form).single("grant_type")
        } catch {
            return oauthError(400, "invalid_request", "the form body is malformed: \(error.description)")
        }
        guard let grantType else {
            return oauthError(400, "invalid_request", "grant_type is missing")
        }
        guard grantType == "client_credentials" else {
            return oauthError(400, "unsupported_grant_type", "only the client_credentials grant is supported")
        }
        let issued = issuer.issue()
        let (seconds, attoseconds) = issued.lifetime.components
        return json(
            200, TokenAnswer(accessToken: issued.token, expiresIn: max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))))
    }

    /// The client id and secret of an HTTP Basic credential, each form-decoded (§2.3.1).
    static func basicCredentials(_ header: String?) -> (id: String, secret: String)? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else { return nil }
        func formDecoded(_ part: Substring) -> String? {
            String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        guard let id = formDecoded(text[..<colon]), let secret = formDecoded(text[text.index(after: colon)...]),
            !id.isEmpty
        else { return nil }
        return (id, secret)
    }

    private static func oauthError(
        _ status: Int, _ code: String, _ description: String, challenge: String? = nil
    ) -> ServerResponse {
        var response = json(status, ErrorAnswer(error: code, errorDescription: description))
        if let challenge { response.headers.add(name: "WWW-Authenticate", value: challenge) }
        return response
    }

    /// A JSON answer that no cache keeps (§5.1).
    private static func json(_ status: Int, _ value: some Encodable) -> ServerResponse {
        var response = Answer.json(status, value)
        response.headers.add(name: "Cache-Control", value: "no-store")
        response.headers.add(name: "Pragma", value: "no-cache")
        return response
    }
}
