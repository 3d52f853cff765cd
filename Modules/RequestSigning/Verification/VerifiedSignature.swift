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
    public var nonce: String? {
        get {
            guard let nonceInField else { return nonceText }
            return Self.text(in: signatureInputField, at: nonceInField)
        }
        set {
            nonceText = newValue
            nonceInField = nil
        }
    }
    /// The `Signature-Input` field value the signature was described by.
    public var signatureInputField: String {
        willSet {
            // The nonce was read from the old value: keep it as text.
            if nonceInField != nil { nonce = nonce }
        }
    }
    /// The nonce as text, when it is not ``nonceInField``.
    private var nonceText: String?
    /// Where the nonce's bytes (without escapes) are in ``signatureInputField``: the verifier
    /// leaves the nonce there rather than copying it into a string of its own.
    private var nonceInField: Range<Int>?

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
        self.nonceText = nonce
        self.nonceInField = nil
        self.signatureInputField = signatureInputField
    }

    /// Creates a result whose nonce is the bytes at `nonceInField` in `signatureInputField`.
    init(
        label: String,
        keyID: String,
        module: String?,
        created: Int64,
        expires: Int64?,
        nonceInField: Range<Int>?,
        signatureInputField: String
    ) {
        self.label = label
        self.keyID = keyID
        self.module = module
        self.created = created
        self.expires = expires
        self.nonceText = nil
        self.nonceInField = nonceInField
        self.signatureInputField = signatureInputField
    }

    /// The text at `range` (UTF-8 offsets) of `field`.
    static func text(in field: String, at range: Range<Int>) -> String {
        let utf8 = field.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return String(decoding: utf8[start..<utf8.index(start, offsetBy: range.count)], as: UTF8.self)
    }

    /// Whether two results agree in every public property.
    public static func == (lhs: VerifiedSignature, rhs: VerifiedSignature) -> Bool {
        lhs.label == rhs.label && lhs.keyID == rhs.keyID && lhs.module == rhs.module && lhs.created == rhs.created
            && lhs.expires == rhs.expires && lhs.nonce == rhs.nonce
            && lhs.signatureInputField == rhs.signatureInputField
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
