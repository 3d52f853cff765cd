/// A feature module's identity: its name, signing identity and known base URLs, declared once
/// as static data on a caseless enum named `<Name>ModuleIdentity`.
///
/// It is the one type that stands for a module outside its own code: the module's service names
/// itself with it, its domain (``ServiceDomain``) and typed client (``ModuleClient``) take it as
/// a generic parameter, and the daemon registers it (`UserModuleIdentity.self`) to bind the
/// module to a key, a transport and a base URL without knowing the module otherwise.
///
/// ```swift
/// public enum UserModuleIdentity: ModuleIdentity {
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
public protocol ModuleIdentity: Sendable {
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

extension ModuleIdentity {
    /// The base URLs known without configuration, by environment name (`staging`, `production`).
    public static var defaultBaseURLs: [String: String] {
        Dictionary(uniqueKeysWithValues: knownBaseURLs.map { ($0.key.rawValue, $0.value) })
    }

    /// The known base URL for an environment name such as `production`, or `nil`.
    public static func defaultBaseURL(for environment: String) -> String? {
        ServiceEnvironment(rawValue: environment).flatMap { knownBaseURLs[$0] }
    }
}
