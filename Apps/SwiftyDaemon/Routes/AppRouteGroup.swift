import SandboxUpstreams
import ServiceCore

/// One feature module's app routes, in one file: the modules they call, how their clients are
/// made, the routes, and what the module's scripted sandbox upstream answers.
///
/// The daemon serves every group listed in ``FeatureModuleRegistry/routeGroups``; a module a
/// registered group calls is routed, and needs its configuration in live mode.
///
/// ```swift
/// struct InventoryRoutes: AppRouteGroup {
///     static let modules: [any ModuleIdentity.Type] = [InventoryModuleIdentity.self]
///     let inventory: InventoryClient
///
///     init(clients: RouteGroupClients) throws { inventory = try clients.make() }
///
///     func addRoutes(to routes: inout AppRoutes) {
///         routes.add("GET", "/v1/inventory/items/:id") { call in
///             AppAnswer.json(try await inventory.item(id: call.parameters["id"] ?? ""))
///         }
///     }
/// }
/// ```
protocol AppRouteGroup: Sendable {
    /// The feature modules whose upstreams the routes call; a client of any other is refused.
    static var modules: [any ModuleIdentity.Type] { get }

    /// What the scripted sandbox upstream of a module without a sandbox upstream of its own
    /// answers (the generated example answers from one); none by default.
    static var sandboxAnswers: [ScriptedAnswer] { get }

    /// Makes the group's clients.
    /// - Throws: ``ConfigurationProblems`` when a module the group calls cannot be bound.
    init(clients: RouteGroupClients) throws

    /// Adds the group's routes.
    func addRoutes(to routes: inout AppRoutes)
}

extension AppRouteGroup {
    static var sandboxAnswers: [ScriptedAnswer] { [] }
}
