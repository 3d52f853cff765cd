public import ServiceCore

/// The payment module's identity: its name, signing identity and known base URLs, as
/// data for the composition root.
///
/// The daemon registers it (`FeatureModuleRegistry.modules`) and binds the module's signing key
/// by ``keyID`` and ``tag``. `new-module` generates an identity of this shape for each module.
public enum PaymentModuleIdentity: ModuleIdentity {
    /// The module's name: its target, its service's `moduleName`, and its key in configuration.
    public static let name = "PaymentModule"

    /// The signing key id the upstream expects unless configuration names another.
    public static let keyID = "payment-1"

    /// The RFC 9421 `tag` its key signs for: the module's name.
    public static let tag = "PaymentModule"

    /// The base URLs known per environment; the sandbox has none.
    public static let knownBaseURLs: [ServiceEnvironment: String] = [
        .staging: "https://payments.staging.api.example.com",
        .production: "https://payments.api.example.com",
    ]
}
