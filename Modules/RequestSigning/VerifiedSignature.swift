/// What a verifier established about a message whose signature it accepted.
public struct VerifiedSignature: Sendable, Equatable {
    /// The signature's label.
    public var label: String
    /// The identifier of the key that made it.
    public var keyID: String
    /// The module the key belongs to (its `tag`), or `nil` for a key not bound to a module.
    public var module: String?
    /// The covered components, in order.
    public var components: [ComponentIdentifier]
    /// The signature's parameters.
    public var parameters: SignatureParameters

    /// Creates a result.
    public init(
        label: String,
        keyID: String,
        module: String?,
        components: [ComponentIdentifier],
        parameters: SignatureParameters
    ) {
        self.label = label
        self.keyID = keyID
        self.module = module
        self.components = components
        self.parameters = parameters
    }
}
