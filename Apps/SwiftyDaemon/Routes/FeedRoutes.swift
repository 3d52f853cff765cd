import FeedModule
import HTTPServer
import ServiceCore

/// The feed module's app routes: the timeline, new posts, likes.
struct FeedRoutes: AppRouteGroup {
    static let modules: [any ModuleIdentity.Type] = [FeedModuleIdentity.self]

    let feed: FeedClient

    init(clients: RouteGroupClients) throws {
        feed = try clients.make()
    }

    func addRoutes(to routes: inout AppRoutes) {
        routes.add("GET", "/v1/feed") { call in
            let query = try AppQuery(call.request.query)
            let limit = try query.limit()
            return AppAnswer.json(try await feed.timeline(user: call.user, cursor: query["cursor"], limit: limit))
        }
        routes.add("POST", "/v1/posts") { call in
            let body = try AppBody.decode(CreatePostBody.self, from: call.request).get()
            let attachments = body.attachments.map {
                AttachmentUpload(fileName: $0.fileName, contentType: $0.contentType, data: $0.data)
            }
            return AppAnswer.json(
                201, try await feed.createPost(author: call.user, text: body.text, attachments: attachments))
        }
        routes.add("PUT", "/v1/posts/:id/like") { call in
            try await feed.like(post: call.parameters["id"] ?? "", user: call.user)
            return .noContent
        }
    }
}
