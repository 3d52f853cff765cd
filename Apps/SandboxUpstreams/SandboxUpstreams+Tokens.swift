import HTTPServer

extension SandboxUpstreams {
    /// The token endpoint's URL text, for example `http://127.0.0.1:41236/oauth/token`: OAuth 2.0
    /// client credentials grant (RFC 6749 §4.4) with HTTP Basic client authentication.
    public var tokenURLString: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(tokenServer.server.port)\(TokenRoutes.path)"
    }

    /// What the token endpoint and the upstreams requiring its tokens have counted so far.
    public var tokenCounts: TokenEndpointCounts { tokenIssuer.counts }

    /// Lets the token endpoint accept a client, or changes its secret.
    public func registerTokenClient(id: String, secret: String) {
        tokenIssuer.register(clientID: id, secret: secret)
    }

    /// Makes an upstream require a valid access token from the token endpoint (a missing,
    /// expired or revoked one gets 401 `invalid_token` with `WWW-Authenticate: Bearer`), or stop.
    public func setAccessTokenRequired(_ required: Bool, for service: SandboxService) {
        tokenIssuer.setRequired(required, for: service)
    }

    /// Changes the lifetime of the access tokens issued from now on.
    /// - Throws: ``SandboxError`` with code `invalidConfiguration` unless it is positive.
    public func setAccessTokenLifetime(_ lifetime: Duration) throws(SandboxError) {
        guard lifetime > .zero else {
            throw SandboxError(.invalidConfiguration, "accessTokenLifetime must be positive")
        }
        tokenIssuer.lifetime = lifetime
    }

    /// Revokes every access token issued so far: the next request with one gets 401.
    public func revokeAccessTokens() {
        tokenIssuer.revokeAll()
    }

    /// Changes the faults the token endpoint injects, from its next request on.
    /// - Throws: ``SandboxError`` with code `invalidConfiguration` for out-of-range settings.
    public func setTokenEndpointFaults(_ faults: FaultSettings) throws(SandboxError) {
        try faults.validate()
        tokenServer.injector.settings = faults
    }
}
