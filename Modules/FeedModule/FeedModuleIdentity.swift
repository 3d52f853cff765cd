public import ServiceCore

/// The feed module's name, signing identity and default domains, as data for the
/// composition root.
///
/// The daemon binds the module's signing key by ``keyID`` and ``tag``; the extension of
/// ``FeatureModuleIdentity`` gives ``registration`` for the daemon's registry. `new-module`
/// generates an identity of this shape for each new module.
public enum FeedModuleIdentity: FeatureModuleIdentity {
    /// The module's name: its target, its service's `moduleName`, and its key in configuration.
    public static let name = "FeedModule"

    /// The signing key id the upstream expects unless configuration names another.
    public static let keyID = "feed-1"

    /// The RFC 9421 `tag` its key signs for: the module's name.
    public static let tag = "FeedModule"

    /// The base URLs known per environment; the sandbox has none.
    public static let knownBaseURLs: [ServiceEnvironment: String] = [
        .staging: "https://feed.staging.api.example.com",
        .production: "https://feed.api.example.com",
    ]
}
