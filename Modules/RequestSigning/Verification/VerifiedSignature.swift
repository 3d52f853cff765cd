/// What a verifier established about a message whose signature it accepted.
public struct VerifiedSignature: Sendable, Equatable {
    /// The signature's label.
    public var label: String
    /// The identifier of the key that made it.
    public var keyID: String
    /// The module the key belongs to (its `tag`), or `nil` for a key not bound to a module.
    public var module: String?
    /// `created`, in seconds since 1970.
    public var created: Int64
    /// `expires`, in seconds since 1970, when the signature had one.
    public var expires: Int64?
    /// The nonce, when the signature had one.
    public var nonce: String?
    /// The `Signature-Input` field value the signature was described by.
    public var signatureInputField: String

    /// Creates a result.
    public init(
        label: String,
        keyID: String,
        module: String?,
        created: Int64,
        expires: Int64?,
        nonce: String?,
        signatureInputField: String
    ) {
        self.label = label
        self.keyID = keyID
        self.module = module
        self.created = created
        self.expires = expires
        self.nonce = nonce
        self.signatureInputField = signatureInputField
    }

    /// The signature's description (components and parameters), read from
    /// ``signatureInputField`` when asked for.
    public var input: SignatureInput? {
        (try? SignatureInput.parse(fieldValue: signatureInputField))?.last { $0.label == label }
    }

    /// The covered components, in order.
    public var components: [ComponentIdentifier] { input?.components ?? [] }

    /// The signature's parameters.
    public var parameters: SignatureParameters { input?.parameters ?? SignatureParameters() }
}
