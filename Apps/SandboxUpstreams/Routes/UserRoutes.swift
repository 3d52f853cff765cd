import Foundation
import HTTPServer

/// The user upstream's routes (`docs/upstreams-user.md`, section 2).
enum UserRoutes {
    /// The router over the shared state.
    static func router(state: SandboxState, clock: @escaping @Sendable () -> Date) -> Router {
        let users = state.users
        var table = RouteTable()
        table.add("GET", "/v1/users/:id") { _, parameters throws(Problem) in
            let id = try parameters.identifier("id")
            guard let user = users.user(id) else { throw Problem(.userNotFound, "no user has the id \"\(id)\"") }
            return Answer.json(200, UserWire.User(user))
        }
        table.add("PUT", "/v1/users/:actor/following/:target") { _, parameters throws(Problem) in
            let actor = try parameters.identifier("actor")
            let target = try parameters.identifier("target")
            try check(users.follow(actor: actor, target: target), actor: actor, target: target)
            return Answer.noContent
        }
        table.add("DELETE", "/v1/users/:actor/following/:target") { _, parameters throws(Problem) in
            let actor = try parameters.identifier("actor")
            let target = try parameters.identifier("target")
            try check(users.unfollow(actor: actor, target: target), actor: actor, target: target)
            return Answer.noContent
        }
        table.add("GET", "/v1/users/:id/followers") { request, parameters throws(Problem) in
            let id = try parameters.identifier("id")
            let query = try QueryString(request.query)
            let limit = try InputRules.pageLimit(query.single("limit"))
            let before = try query.single("cursor").map { (cursor) throws(Problem) in
                try PageCursor.decodeFollowers(cursor, user: id)
            }
            guard let page = users.followers(of: id, before: before, limit: limit) else {
                throw Problem(.userNotFound, "no user has the id \"\(id)\"")
            }
            var next: String?
            if page.hasMore, let last = page.entries.last {
                next = PageCursor.followers(user: id, sequence: last.sequence).encoded
            }
            let items = page.entries.map { UserWire.UserSummary(id: $0.id, displayName: $0.displayName) }
            return Answer.json(200, PageWire(items: items, nextCursor: next))
        }
        table.add("POST", "/v1/sessions/introspect") { request, _ throws(Problem) in
            let token = try RequestBody.json(request, as: RequestWire.Introspection.self).token
            guard !token.isEmpty, token.utf8.count <= InputRules.maximumTokenBytes,
                !InputRules.hasControlCharacters(token)
            else {
                throw Problem(
                    .invalidRequest,
                    "token must be 1-\(InputRules.maximumTokenBytes) bytes without control characters")
            }
            return Answer.json(200, UserWire.Introspection(users.session(forToken: token, at: clock())))
        }
        return table.router
    }

    private static func check(_ result: FollowResult, actor: String, target: String) throws(Problem) {
        switch result {
        case .done: return
        case .unknownActor: throw Problem(.userNotFound, "no user has the id \"\(actor)\" (the actor)")
        case .unknownTarget: throw Problem(.userNotFound, "no user has the id \"\(target)\" (the target)")
        case .followingSelf: throw Problem(.cannotFollowSelf, "a user cannot follow themselves")
        }
    }
}
