/// Where ``CredentialRefreshMiddleware`` gets bearer credentials: an OAuth 2.0 token endpoint
/// (``ClientCredentialsSource``), a refresh-token exchange, or a test double.
public protocol CredentialSource: Sendable {
    /// Fetches a new credential.
    /// - Throws: Any error; the middleware wraps it in a
    ///   ``ServiceError/Code-swift.struct/credentialRefreshFailed`` error.
    func fetchCredential() async throws -> BearerCredential
}
