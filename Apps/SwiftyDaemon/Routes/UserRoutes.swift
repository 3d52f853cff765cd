import HTTPServer
import ServiceCore
import UserModule

/// The user module's app routes: the caller's profile, other profiles, follows.
struct UserRoutes: AppRouteGroup {
    static let modules: [any ModuleIdentity.Type] = [UserModuleIdentity.self]

    let users: UserClient

    init(clients: RouteGroupClients) throws {
        users = try clients.make()
    }

    func addRoutes(to routes: inout AppRoutes) {
        routes.add("GET", "/v1/me") { call in
            AppAnswer.json(try await users.profile(id: call.user))
        }
        routes.add("GET", "/v1/users/:id") { call in
            AppAnswer.json(try await users.profile(id: call.parameters["id"] ?? ""))
        }
        routes.add("PUT", "/v1/me/following/:id") { call in
            let target = call.parameters["id"] ?? ""
            guard target != call.user else {
                throw AppProblemResponse(
                    problem: AppProblem(422, "You cannot follow yourself.", code: "cannot_follow_self"))
            }
            try await users.follow(target: target, actor: call.user)
            return .noContent
        }
        routes.add("DELETE", "/v1/me/following/:id") { call in
            try await users.unfollow(target: call.parameters["id"] ?? "", actor: call.user)
            return .noContent
        }
    }
}
