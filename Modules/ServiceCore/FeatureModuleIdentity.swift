/// A feature module's name, signing identity and default domains, declared as static data for
/// the composition root.
///
/// Implement it once per module, on a caseless enum named `<Name>ModuleIdentity`; use the
/// extension's ``registration`` and ``defaultBaseURLs``, and ``ServiceDomain`` for the base URL:
///
/// ```swift
/// public enum UserModuleIdentity: FeatureModuleIdentity {
///     public static let name = "UserModule"
///     public static let keyID = "user-1"
///     public static let tag = "UserModule"
///     public static let knownBaseURLs: [ServiceEnvironment: String] = [
///         .staging: "https://users.staging.api.example.com",
///         .production: "https://users.api.example.com",
///     ]
/// }
/// ```
///
/// The daemon binds the module's signing key by ``keyID`` and ``tag``: the upstream accepts only
/// requests signed with a key registered for the module's tag.
public protocol FeatureModuleIdentity {
    /// The module's name: its target, its service's `moduleName`, and its key in configuration.
    static var name: String { get }

    /// The id of the signing key the upstream expects unless configuration names another
    /// (the RFC 9421 `keyid` parameter).
    static var keyID: String { get }

    /// The RFC 9421 `tag` parameter: the module's name. A key signs only for its own tag, and the
    /// signing middleware checks it against the service's `moduleName`.
    static var tag: String { get }

    /// The base URLs known per environment; the sandbox has none.
    static var knownBaseURLs: [ServiceEnvironment: String] { get }
}

extension FeatureModuleIdentity {
    /// Everything above in one value, for a registry line per module.
    public static var registration: ModuleIdentity {
        ModuleIdentity(name: name, keyID: keyID, tag: tag, knownBaseURLs: knownBaseURLs)
    }

    /// The base URLs known without configuration, by environment name (`staging`, `production`).
    public static var defaultBaseURLs: [String: String] {
        registration.defaultBaseURLs
    }
}
