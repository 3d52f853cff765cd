/// An access token for an upstream that takes bearer credentials (RFC 6750), as a
/// ``CredentialSource`` hands it out.
public struct BearerCredential: Sendable, Equatable {
    /// The token sent as `Authorization: Bearer <token>`.
    public var token: String
    /// How long it is valid from when it was fetched, or `nil` when the issuer did not say.
    public var lifetime: Duration?

    /// Creates a credential.
    public init(token: String, lifetime: Duration?) {
        self.token = token
        self.lifetime = lifetime
    }
}
