/// The parameters of a signature (RFC 9421 §2.3): `created`, `expires`, `nonce`, `keyid`,
/// `alg`, `tag`, kept in order with any others a sender added.
///
/// The order matters: the `@signature-params` line of the base serialises them exactly as
/// listed.
public struct SignatureParameters: Hashable, Sendable {
    /// The parameters in order, as serialised.
    public var parameters: SFParameters

    /// Creates parameters from structured-field parameters.
    public init(_ parameters: SFParameters) { self.parameters = parameters }

    /// Creates parameters in Swifty's order: `created`, `expires`, `nonce`, `keyid`, `alg`,
    /// `tag` (each only when given).
    public init(
        created: Int64? = nil,
        expires: Int64? = nil,
        nonce: String? = nil,
        keyID: String? = nil,
        algorithm: String? = nil,
        tag: String? = nil
    ) {
        parameters = SFParameters()
        if let created { parameters["created"] = .integer(created) }
        if let expires { parameters["expires"] = .integer(expires) }
        if let nonce { parameters["nonce"] = .string(nonce) }
        if let keyID { parameters["keyid"] = .string(keyID) }
        if let algorithm { parameters["alg"] = .string(algorithm) }
        if let tag { parameters["tag"] = .string(tag) }
    }

    /// `created`: when the signature was made, in seconds since 1970 (`nil` if absent or not an
    /// integer).
    public var created: Int64? { parameters["created"]?.integerValue }
    /// `expires`: when the signature stops being valid, in seconds since 1970.
    public var expires: Int64? { parameters["expires"]?.integerValue }
    /// `nonce`: a random value that makes the signature unique.
    public var nonce: String? { parameters["nonce"]?.stringValue }
    /// `keyid`: which key made the signature.
    public var keyID: String? { parameters["keyid"]?.stringValue }
    /// `alg`: the algorithm the sender claims (never trusted by the verifier).
    public var algorithm: String? { parameters["alg"]?.stringValue }
    /// `tag`: what the signature is for; in Swifty, the signing module's name.
    public var tag: String? { parameters["tag"]?.stringValue }

    /// The known parameters read in one pass.
    struct Decoded {
        var created: Int64?
        var expires: Int64?
        var nonce: String?
        var keyID: String?
        var algorithm: String?
        var tag: String?
        /// The first known parameter with the wrong type.
        var mistyped: String?
    }

    /// Reads the known parameters in one pass.
    func decoded() -> Decoded {
        var result = Decoded()
        for parameter in parameters.elements {
            switch parameter.key {
            case "created":
                if case .integer(let value) = parameter.value {
                    result.created = value
                } else {
                    result.mistyped = result.mistyped ?? "created"
                }
            case "expires":
                if case .integer(let value) = parameter.value {
                    result.expires = value
                } else {
                    result.mistyped = result.mistyped ?? "expires"
                }
            case "nonce":
                if case .string(let value) = parameter.value {
                    result.nonce = value
                } else {
                    result.mistyped = result.mistyped ?? "nonce"
                }
            case "keyid":
                if case .string(let value) = parameter.value {
                    result.keyID = value
                } else {
                    result.mistyped = result.mistyped ?? "keyid"
                }
            case "alg":
                if case .string(let value) = parameter.value {
                    result.algorithm = value
                } else {
                    result.mistyped = result.mistyped ?? "alg"
                }
            case "tag":
                if case .string(let value) = parameter.value {
                    result.tag = value
                } else {
                    result.mistyped = result.mistyped ?? "tag"
                }
            default:
                continue
            }
        }
        return result
    }

    /// The name of the first of the known parameters present with the wrong type (`created`
    /// and `expires` are integers; `nonce`, `keyid`, `alg` and `tag` are strings), or `nil`.
    public var mistypedParameter: String? { decoded().mistyped }
}
