import Foundation
import HTTPServer
import ServiceCore
import UserModule

/// The app-facing API: the authenticator and every registered route group
/// (``FeatureModuleRegistry/routeGroups``), each with its module clients.
struct AppAPI: Sendable {
    /// The module that authenticates every app request (token introspection): always routed.
    static let authenticationModule: any ModuleIdentity.Type = UserModuleIdentity.self

    let authenticator: Authenticator
    let groups: [any AppRouteGroup]
    /// Counts requests against the configured rate limits; `nil` for none.
    let rateLimiter: RateLimiter?
    /// The proxies whose `Forwarded` / `X-Forwarded-For` give the client's address.
    let trustedProxies: Set<String>

    /// Makes the authenticator and the route groups from the module clients.
    /// - Parameters:
    ///   - modules: Makes each module's client from its binding.
    ///   - tokenCache: Where introspected bearer tokens are cached.
    ///   - tokenTTL: How long an active token is trusted without asking again, in seconds.
    ///   - rateLimiter: Counts requests against the rate limits; `nil` for none.
    ///   - trustedProxies: The proxies whose forwarding fields give the client's address.
    ///   - metrics: Where token-cache hits and misses are counted; nowhere when `nil`.
    /// - Throws: ``ConfigurationProblems`` when a routed module cannot be bound.
    init(
        modules: ModuleClientFactory, tokenCache: any TokenCache, tokenTTL: TimeInterval,
        rateLimiter: RateLimiter? = nil, trustedProxies: Set<String> = [], metrics: Metrics? = nil
    ) throws {
        self.rateLimiter = rateLimiter
        self.trustedProxies = trustedProxies
        authenticator = Authenticator(
            users: UserClient(try modules.client(UserService.self, Self.authenticationModule.name)),
            cache: tokenCache,
            ttl: tokenTTL,
            metrics: metrics
        )
        groups = try FeatureModuleRegistry.routeGroups.map { group in
            try group.init(clients: RouteGroupClients(for: group, factory: modules))
        }
    }

    /// Every group's routes, in registry order.
    func makeRouter() -> Router {
        makeRoutes().router
    }

    /// The method and pattern of every route, in registry order.
    var declaredRoutes: [(method: String, pattern: String)] {
        makeRoutes().declared
    }

    private func makeRoutes() -> AppRoutes {
        var routes = AppRoutes(authenticator: authenticator, rateLimiter: rateLimiter, trustedProxies: trustedProxies)
        for group in groups { group.addRoutes(to: &routes) }
        return routes
    }
}
