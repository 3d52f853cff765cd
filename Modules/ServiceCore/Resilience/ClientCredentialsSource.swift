public import Foundation
import HTTPTypes

/// Fetches access tokens with the OAuth 2.0 client credentials grant (RFC 6749 §4.4): a form
/// `POST` of `grant_type=client_credentials` to the token endpoint, authenticated with HTTP Basic
/// (§2.3.1), answered by JSON with `access_token` and `expires_in` (§5.1).
public struct ClientCredentialsSource: CredentialSource {
    /// An error of the token endpoint.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, without secrets.
        public var message: String
        /// Creates an error.
        public init(message: String) { self.message = message }

        /// `message`.
        public var description: String { message }
    }

    private struct TokenResponse: Decodable {
        var accessToken: String
        var tokenType: String?
        var expiresIn: Double?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
        }
    }

    /// The token endpoint.
    public let tokenURL: URL
    /// The client identifier.
    public let clientID: String
    private let clientSecret: String
    /// The scopes asked for, or `nil` for the server's default.
    public let scope: String?
    private let transport: any Transport
    private let timeout: Duration

    /// Creates a source.
    /// - Parameters:
    ///   - tokenURL: The token endpoint.
    ///   - clientID: The client identifier.
    ///   - clientSecret: The client secret.
    ///   - scope: Space-separated scopes, or `nil`.
    ///   - transport: The transport to the token endpoint.
    ///   - timeout: How long a token request may take; 5 s by default.
    public init(
        tokenURL: URL,
        clientID: String,
        clientSecret: String,
        scope: String? = nil,
        transport: any Transport,
        timeout: Duration = .seconds(5)
    ) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
        self.transport = transport
        self.timeout = timeout
    }

    /// Asks the token endpoint for a new access token.
    public func fetchCredential() async throws -> BearerCredential {
        var form = "grant_type=client_credentials"
        if let scope { form += "&scope=" + Self.formEncode(scope) }
        let basic = Data("\(Self.formEncode(clientID)):\(Self.formEncode(clientSecret))".utf8).base64EncodedString()
        let request = HTTPRequest(
            method: .post,
            url: tokenURL,
            headers: [
                "Content-Type": "application/x-www-form-urlencoded",
                "Accept": "application/json",
                "Authorization": "Basic \(basic)",
            ],
            body: Data(form.utf8),
            timeout: timeout
        )
        let response = try await transport.send(request)
        guard response.status == 200 else {
            throw Failure(message: "the token endpoint \(tokenURL.host ?? "") answered HTTP \(response.status)")
        }
        guard let token = try? JSONDecoder().decode(TokenResponse.self, from: response.body),
            !token.accessToken.isEmpty
        else {
            throw Failure(message: "the token endpoint's answer has no access_token")
        }
        if let type = token.tokenType, type.lowercased() != "bearer" {
            throw Failure(message: "the token endpoint issued a \(type) token, not a bearer token")
        }
        return BearerCredential(
            token: token.accessToken,
            lifetime: token.expiresIn.map { .milliseconds(Int64($0 * 1000)) }
        )
    }

    /// `application/x-www-form-urlencoded` escaping of one value.
    private static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
