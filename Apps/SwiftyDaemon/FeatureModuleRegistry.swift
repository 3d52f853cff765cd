import FeedModule
import PaymentModule
public import ServiceCore
import UserModule

/// The feature modules the daemon knows, as data: each one's name, default signing key id, tag
/// and default base URLs per environment.
///
/// The daemon's configuration accepts, for every registered module, a base URL (or an
/// environment) and a key (id and file) without further code. `new-module` adds one line to
/// ``modules`` for each module it creates; keep the list sorted by name.
public enum FeatureModuleRegistry {
    /// One feature module's registration: its `<Name>ModuleIdentity.registration`.
    public typealias Module = ModuleIdentity

    /// Every feature module, sorted by name; `new-module` inserts one line here.
    public static let modules: [Module] = [
        FeedModuleIdentity.registration,
        PaymentModuleIdentity.registration,
        UserModuleIdentity.registration,
    ]

    /// The module registered under `name`, or `nil`.
    public static func module(named name: String) -> Module? {
        modules.first { $0.name == name }
    }
}
