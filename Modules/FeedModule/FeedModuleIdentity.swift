public import ServiceCore

/// The feed module's identity: its name, signing identity and known base URLs, as
/// data for the composition root.
///
/// The daemon registers it (`FeatureModuleRegistry.modules`) and binds the module's signing key
/// by ``keyID`` and ``tag``. `new-module` generates an identity of this shape for each module.
public enum FeedModuleIdentity: ModuleIdentity {
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
