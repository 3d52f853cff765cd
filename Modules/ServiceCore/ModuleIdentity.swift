/// A feature module's name, signing identity and known base URLs as one value: what the
/// composition root needs to bind the module to a key and an upstream.
///
/// Each module's identity type gives it as ``FeatureModuleIdentity/registration``; the daemon's
/// registry holds one per module.
public struct ModuleIdentity: Sendable, Hashable {
    /// The module's name: its target, its service's `moduleName`, and its key in configuration.
    public var name: String
    /// The id of the signing key the upstream expects unless configuration names another
    /// (the RFC 9421 `keyid` parameter).
    public var keyID: String
    /// The RFC 9421 `tag` parameter naming the module; a key signs only for its own tag.
    public var tag: String
    /// The base URLs known without configuration, per environment; the sandbox has none.
    public var knownBaseURLs: [ServiceEnvironment: String]

    /// Creates an identity.
    /// - Parameters:
    ///   - name: The module's name, for example `UserModule`.
    ///   - keyID: The default signing key id, for example `user-1`.
    ///   - tag: The RFC 9421 `tag`, the module's name.
    ///   - knownBaseURLs: The base URLs known per environment.
    public init(name: String, keyID: String, tag: String, knownBaseURLs: [ServiceEnvironment: String]) {
        self.name = name
        self.keyID = keyID
        self.tag = tag
        self.knownBaseURLs = knownBaseURLs
    }

    /// The known base URLs by environment name (`staging`, `production`), as configuration names them.
    public var defaultBaseURLs: [String: String] {
        Dictionary(uniqueKeysWithValues: knownBaseURLs.map { ($0.key.rawValue, $0.value) })
    }

    /// The known base URL for an environment name such as `production`, or `nil`.
    public func defaultBaseURL(for environment: String) -> String? {
        ServiceEnvironment(rawValue: environment).flatMap { knownBaseURLs[$0] }
    }
}
