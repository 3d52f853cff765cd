import FeedModule
import PaymentModule
public import ServiceCore
import UserModule

/// What the daemon composes: the feature modules it knows and the route groups it serves.
///
/// For every module in ``modules`` the configuration accepts settings under the module's name,
/// and sandbox mode runs an upstream. A module is routed when the authenticator or a group in
/// ``routeGroups`` calls it; only routed modules are bound, and in live mode each needs its base
/// URL and key. `new-module` adds one line to each list; keep both sorted by name.
public enum FeatureModuleRegistry {
    /// Every feature module's identity, sorted by name; `new-module` inserts one line here.
    public static let modules: [any ModuleIdentity.Type] = [
        FeedModuleIdentity.self,
        PaymentModuleIdentity.self,
        UserModuleIdentity.self,
    ]

    /// Every route group of the app API, sorted by name; `new-module` inserts one line here.
    static let routeGroups: [any AppRouteGroup.Type] = [
        FeedRoutes.self,
        HomeRoutes.self,
        PaymentRoutes.self,
        UserRoutes.self,
    ]

    /// The module registered under `name`, or `nil`.
    public static func module(named name: String) -> (any ModuleIdentity.Type)? {
        modules.first { $0.name == name }
    }

    /// The routed modules' names, in registry order, each with what calls it: the authenticator,
    /// route groups by type name.
    /// - Parameter groups: The route groups served: ``routeGroups`` unless given.
    static func routedModules(groups: [any AppRouteGroup.Type] = routeGroups) -> [(name: String, callers: [String])] {
        var callers: [String: [String]] = [AppAPI.authenticationModule.name: ["the authenticator"]]
        for group in groups {
            for module in group.modules where !(callers[module.name]?.contains("\(group)") ?? false) {
                callers[module.name, default: []].append("\(group)")
            }
        }
        return modules.compactMap { module in callers[module.name].map { (module.name, $0) } }
    }
}
