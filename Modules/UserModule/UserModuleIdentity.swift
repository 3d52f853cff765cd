public import ServiceCore

/// The user module's name, signing identity and default domains, as data for the
/// composition root.
///
/// The daemon binds the module's signing key by ``keyID`` and ``tag``; the extension of
/// ``FeatureModuleIdentity`` gives ``registration`` for the daemon's registry. `new-module`
/// generates an identity of this shape for each new module.
public enum UserModuleIdentity: FeatureModuleIdentity {
    /// The module's name: its target, its service's `moduleName`, and its key in configuration.
    public static let name = "UserModule"

    /// The signing key id the upstream expects unless configuration names another.
    public static let keyID = "user-1"

    /// The RFC 9421 `tag` its key signs for: the module's name.
    public static let tag = "UserModule"

    /// The base URLs known per environment; the sandbox has none.
    public static let knownBaseURLs: [ServiceEnvironment: String] = [
        .staging: "https://users.staging.api.example.com",
        .production: "https://users.api.example.com",
    ]
}
