/// The user module's name, signing identity and default domains, as data for the
/// composition root.
///
/// The daemon binds the module's signing key by ``keyID`` and ``tag``: the upstream accepts
/// only requests signed with a key registered for the module's tag. Every feature module has an
/// identity of this shape; `new-module` generates one for each new module.
public enum UserModuleIdentity {
    /// The module's name: its target, its service's `moduleName`, and its key in configuration.
    public static let name = "UserModule"

    /// The id of the signing key the upstream expects unless configuration names another
    /// (the RFC 9421 `keyid` parameter).
    public static let keyID = "user-1"

    /// The RFC 9421 `tag` parameter: the module's name. A key signs only for its own tag, and the
    /// signing middleware checks it against the service's `moduleName`.
    public static let tag = "UserModule"

    /// The base URLs known without configuration, by environment name (`staging`, `production`).
    public static let defaultBaseURLs: [String: String] = Dictionary(
        uniqueKeysWithValues: UserDomain.knownBaseURLs.map { ($0.key.rawValue, $0.value) }
    )

    /// Everything above in one value, for a registry line per module.
    public static let registration: (name: String, keyID: String, tag: String, baseURLs: [String: String]) = (
        name, keyID, tag, defaultBaseURLs
    )
}
