/// A module's signing key: its identifier (`keyid`), its algorithm, the module it may sign for
/// (`tag`), and the secret.
///
/// A verifier looks keys up by ``id`` in a ``KeyRing`` and uses the key's own ``algorithm``,
/// never the message's `alg`. `description` and `debugDescription` never show the secret.
public struct SigningKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The fewest secret bytes accepted: the output length of SHA-256, as RFC 2104 advises.
    public static let minimumSecretLength = 32

    /// The key identifier sent as `keyid`.
    public let id: String
    /// The algorithm this key is used with.
    public let algorithm: SigningAlgorithm
    /// The module this key signs for, sent as `tag` and required by verifiers; `nil` for a key
    /// not bound to a module (the verifier then does not check `tag`).
    public let tag: String?
    /// The secret, as keyed OpenSSL contexts.
    public let secret: HMACKey

    /// Creates a key from secret bytes.
    /// - Parameters:
    ///   - id: The key identifier: printable ASCII, not empty.
    ///   - algorithm: The HMAC variant.
    ///   - tag: The module the key signs for (printable ASCII), or `nil`.
    ///   - secret: At least ``minimumSecretLength`` bytes. The caller should clear its copy.
    /// - Throws: ``SigningError`` with code `invalidKey`.
    public init(
        id: String,
        algorithm: SigningAlgorithm = .hmacSHA256,
        tag: String?,
        secret: some Collection<UInt8>
    ) throws(SigningError) {
        try Self.validateText(id, what: "key id")
        if let tag { try Self.validateText(tag, what: "tag") }
        guard secret.count >= Self.minimumSecretLength else {
            throw SigningError(
                .invalidKey,
                "the secret of key \"\(id)\" is \(secret.count) bytes; at least \(Self.minimumSecretLength) "
                    + "are required"
            )
        }
        self.id = id
        self.algorithm = algorithm
        self.tag = tag
        self.secret = try HMACKey(secret: secret, algorithm: algorithm)
    }

    /// Identifier, algorithm and tag; never the secret.
    public var description: String {
        let shownTag = tag.map { "\"\($0)\"" } ?? "nil"
        return "SigningKey(id: \"\(id)\", algorithm: \(algorithm), tag: \(shownTag), secret: <redacted>)"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    private static func validateText(_ text: String, what: String) throws(SigningError) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
            throw SigningError(.invalidKey, "the \(what) \"\(text)\" must be non-empty printable ASCII")
        }
    }
}
