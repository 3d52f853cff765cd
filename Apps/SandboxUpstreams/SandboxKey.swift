public import RequestSigning

/// The signing key of one sandbox upstream's module: its `keyid`, its `tag` and the secret.
///
/// The upstream verifies with it; the daemon signs that module's requests with
/// ``signingKey``. `description` never shows the secret.
public struct SandboxKey: Sendable, CustomStringConvertible {
    /// The upstream (and so the module) the key belongs to.
    public let service: SandboxService
    /// The key id sent as `keyid`.
    public let keyID: String
    /// The module's tag, sent as `tag`.
    public let tag: String
    /// The key, ready to sign or verify (`hmac-sha256`).
    public let signingKey: SigningKey
    /// The secret bytes, kept to write key files; `nil` for a key loaded from a file.
    let secret: [UInt8]?

    /// Creates a key from secret bytes.
    /// - Parameters:
    ///   - service: The upstream it belongs to.
    ///   - keyID: The key id; the module's default (``SandboxService/defaultKeyID``) unless given.
    ///   - secret: At least 32 bytes.
    /// - Throws: ``SandboxError`` with code `invalidKey`.
    public init(service: SandboxService, keyID: String? = nil, secret: some Collection<UInt8>) throws(SandboxError) {
        let keyID = keyID ?? service.defaultKeyID
        do {
            signingKey = try SigningKey(id: keyID, tag: service.tag, secret: secret)
        } catch {
            throw SandboxError(.invalidKey, service: service, error.message)
        }
        self.service = service
        self.keyID = keyID
        self.tag = service.tag
        self.secret = Array(secret)
    }

    /// Wraps a key loaded from a file (whose bytes are not kept).
    init(service: SandboxService, signingKey: SigningKey) {
        self.service = service
        self.keyID = signingKey.id
        self.tag = service.tag
        self.signingKey = signingKey
        self.secret = nil
    }

    /// Service, key id and tag; never the secret.
    public var description: String {
        "SandboxKey(service: \(service), keyID: \"\(keyID)\", tag: \"\(tag)\", secret: <redacted>)"
    }
}
