import FeedModule
import PaymentModule
import UserModule

/// The feature modules the daemon knows, as data: each one's name, default signing key id, tag
/// and default base URLs per environment.
///
/// The daemon's configuration accepts, for every registered module, a base URL (or an
/// environment) and a key (id and file) without further code. `new-module` adds one line to
/// ``modules`` for each module it creates; keep the list sorted by name.
public enum FeatureModuleRegistry {
    /// One feature module's registration.
    public struct Module: Sendable, Equatable {
        /// The module's name, for example `UserModule`: its target and its key in configuration.
        public let name: String
        /// The signing key id its upstream expects unless configuration names another.
        public let keyID: String
        /// The RFC 9421 `tag` naming the module; a key may sign only for its own tag.
        public let tag: String
        /// The base URLs known without configuration, by environment name (`staging`,
        /// `production`); the sandbox's is always given by the daemon.
        public let defaultBaseURLs: [String: String]

        /// Creates a registration.
        public init(name: String, keyID: String, tag: String, defaultBaseURLs: [String: String]) {
            self.name = name
            self.keyID = keyID
            self.tag = tag
            self.defaultBaseURLs = defaultBaseURLs
        }

        /// Creates a registration from a module identity's `registration` value.
        public init(_ registration: (name: String, keyID: String, tag: String, baseURLs: [String: String])) {
            self.init(
                name: registration.name,
                keyID: registration.keyID,
                tag: registration.tag,
                defaultBaseURLs: registration.baseURLs
            )
        }

        /// The known base URL for an environment name, or `nil`.
        public func defaultBaseURL(for environment: String) -> String? {
            defaultBaseURLs[environment]
        }
    }

    /// Every feature module, sorted by name; `new-module` inserts one line here.
    public static let modules: [Module] = [
        .init(FeedModuleIdentity.registration),
        .init(PaymentModuleIdentity.registration),
        .init(UserModuleIdentity.registration),
    ]

    /// The module registered under `name`, or `nil`.
    public static func module(named name: String) -> Module? {
        modules.first { $0.name == name }
    }
}
