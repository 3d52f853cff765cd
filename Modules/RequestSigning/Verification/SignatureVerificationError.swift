/// Why a verifier rejected a message.
///
/// ``code`` says which check failed; ``message`` says what was expected and found, in words a
/// person can act on. Neither ever contains key material.
public struct SignatureVerificationError: Error, Sendable, CustomStringConvertible {
    /// Which check failed. A struct of constants, so new codes do not break users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// There is no `Signature-Input` or `Signature` field, or no signature with the label.
        public static let missingSignature = Code("missing signature")
        /// `Signature-Input` is not a valid structured field, or its member is not a valid list
        /// of components with well-typed parameters.
        public static let malformedSignatureInput = Code("malformed Signature-Input")
        /// `Signature` is not a valid structured field, or its member is not a byte sequence.
        public static let malformedSignature = Code("malformed Signature")
        /// A parameter the verifier requires (`keyid`, `created`, `nonce`, `expires`) is absent.
        public static let missingParameter = Code("missing parameter")
        /// No key in the ring has the message's `keyid`.
        public static let unknownKey = Code("unknown key")
        /// The message's `alg` is not the algorithm of the key it names.
        public static let algorithmMismatch = Code("algorithm mismatch")
        /// The message's `tag` is absent or is not the module the key belongs to.
        public static let tagMismatch = Code("tag mismatch")
        /// A component the verifier requires is not covered, or a covered one is not in the message.
        public static let missingComponent = Code("missing component")
        /// `created` is later than now plus the allowed clock skew.
        public static let createdInFuture = Code("created in the future")
        /// `created` is older than the maximum age.
        public static let tooOld = Code("too old")
        /// `expires` has passed.
        public static let expired = Code("expired")
        /// The signature does not match the signature base rebuilt from the message.
        public static let invalidSignature = Code("invalid signature")
        /// The body does not match `Content-Digest` (or the field is malformed or names no
        /// supported algorithm).
        public static let digestMismatch = Code("digest mismatch")
        /// The nonce was already used with this key within the replay window.
        public static let replayedNonce = Code("replayed nonce")
        /// The replay guard is full of nonces that have not expired, so it cannot accept more.
        public static let replayGuardFull = Code("replay guard full")
        /// The replay guard's store (Redis, a database) could not be asked, so the nonce could
        /// not be checked; the request is refused rather than accepted unchecked. The message
        /// names the store and what failed.
        public static let replayStoreUnavailable = Code("replay store unavailable")
        /// OpenSSL failed while computing the MAC or digest.
        public static let cryptoFailure = Code("crypto failure")

        /// The code's name.
        public var description: String { name }
    }

    /// Which check failed.
    public var code: Code
    /// What was expected and what was found.
    public var message: String
    /// The label of the signature checked, when known.
    public var label: String?
    /// The `keyid` of the signature checked, when known.
    public var keyID: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, label: String? = nil, keyID: String? = nil) {
        self.code = code
        self.message = message
        self.label = label
        self.keyID = keyID
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
