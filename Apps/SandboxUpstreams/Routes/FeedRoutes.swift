import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore

/// The feed upstream's routes (`docs/upstreams-feed.md`, section 3).
enum FeedRoutes {
    /// The most attachments a post may have.
    static let maximumAttachments = 4
    /// The largest attachment: 5 MiB.
    static let maximumAttachmentBytes = 5 * 1024 * 1024
    /// The largest field part (`authorId`, `text`) of a multipart post.
    static let maximumFieldBytes = 16 * 1024

    /// A new post as read from either body form.
    struct NewPost {
        var authorID: String
        var text: String
        var attachments: [AttachmentUploadRecord]
    }

    /// The router over the shared state.
    static func router(state: SandboxState, clock: @escaping @Sendable () -> Date) -> Router {
        let users = state.users
        let posts = state.posts
        var table = RouteTable()
        table.add("GET", "/v1/timelines/:user") { request, parameters throws(Problem) in
            let user = try parameters.identifier("user")
            let query = try QueryString(request.query)
            let limit = try InputRules.pageLimit(query.single("limit"))
            let position = try query.single("cursor").map { (cursor) throws(Problem) in
                try PageCursor.decodeTimeline(cursor, user: user)
            }
            guard let followed = users.followedUsers(of: user) else {
                throw Problem(.userNotFound, "no user has the id \"\(user)\"")
            }
            let page = posts.timeline(authors: followed.union([user]), olderThan: position, limit: limit)
            var next: String?
            if page.hasMore, let last = page.posts.last {
                next = PageCursor.timeline(user: user, createdAt: last.createdAtSeconds, postID: last.id).encoded
            }
            return Answer.json(200, PageWire(items: page.posts.map(FeedWire.Post.init), nextCursor: next))
        }
        table.add("GET", "/v1/posts/:id") { _, parameters throws(Problem) in
            let id = try parameters.identifier("id")
            guard let post = posts.post(id) else { throw Problem(.postNotFound, "no post has the id \"\(id)\"") }
            return Answer.json(200, FeedWire.Post(post))
        }
        table.add("POST", "/v1/posts") { request, _ throws(Problem) in
            let new = try readNewPost(request)
            guard users.user(new.authorID) != nil else {
                throw Problem(.userNotFound, "no user has the id \"\(new.authorID)\" (the author)")
            }
            let post = posts.create(authorID: new.authorID, text: new.text, attachments: new.attachments, at: clock())
            return Answer.created(FeedWire.Post(post), location: "/v1/posts/\(PercentEncoding.pathSegment(post.id))")
        }
        table.add("PUT", "/v1/posts/:post/likes/:user") { _, parameters throws(Problem) in
            let postID = try parameters.identifier("post")
            let user = try parameters.identifier("user")
            guard posts.post(postID) != nil else { throw Problem(.postNotFound, "no post has the id \"\(postID)\"") }
            guard users.user(user) != nil else { throw Problem(.userNotFound, "no user has the id \"\(user)\"") }
            guard posts.like(post: postID, by: user) != nil else {
                throw Problem(.postNotFound, "no post has the id \"\(postID)\"")
            }
            return Answer.noContent
        }
        return table.router
    }

    /// Reads and checks a new post from a JSON or `multipart/form-data` body.
    static func readNewPost(_ request: ServerRequest) throws(Problem) -> NewPost {
        guard !request.body.isEmpty else { throw Problem(.invalidRequest, "a body is required") }
        let type = try RequestBody.mediaType(of: request)
        let new: NewPost
        switch type.essence {
        case "application/json":
            try RequestBody.checkJSONSize(request)
            let body = try RequestBody.decode(request, as: RequestWire.NewPost.self)
            new = NewPost(authorID: body.authorId, text: body.text, attachments: [])
        case "multipart/form-data":
            new = try readMultipart(request, type: type)
        default:
            throw Problem(
                .unsupportedMediaType, "the body is \(type.essence); send application/json or multipart/form-data")
        }
        try InputRules.identifier(new.authorID, named: "authorId")
        try InputRules.postText(new.text)
        return new
    }

    private static func readMultipart(_ request: ServerRequest, type: MediaType) throws(Problem) -> NewPost {
        guard request.body.count <= RequestBody.maximumMultipartBytes else {
            throw Problem(
                .bodyTooLarge,
                "the multipart body is \(request.body.count) bytes; at most \(RequestBody.maximumMultipartBytes) "
                    + "are accepted")
        }
        guard let boundary = type.parameter("boundary") else {
            throw Problem(.invalidRequest, "malformed multipart body: the Content-Type has no boundary")
        }
        let form = try MultipartFormData(body: request.body, boundary: boundary)
        var authorID: String?
        var text: String?
        var attachments: [AttachmentUploadRecord] = []
        for part in form.parts {
            switch part.name {
            case "authorId", "text":
                guard part.fileName == nil else {
                    throw Problem(.invalidRequest, "the part \"\(part.name)\" must be a field, not a file")
                }
                guard part.data.count <= maximumFieldBytes, let value = String(validating: part.data, as: UTF8.self)
                else {
                    throw Problem(
                        .invalidRequest,
                        "the field \"\(part.name)\" must be UTF-8 text of at most \(maximumFieldBytes) bytes")
                }
                if part.name == "authorId" {
                    guard authorID == nil else { throw Problem(.invalidRequest, "the field \"authorId\" is repeated") }
                    authorID = value
                } else {
                    guard text == nil else { throw Problem(.invalidRequest, "the field \"text\" is repeated") }
                    text = value
                }
            case "attachment":
                attachments.append(try readAttachment(part, index: attachments.count))
            default:
                throw Problem(
                    .invalidRequest, "the part \"\(part.name)\" is not accepted (use authorId, text and attachment)")
            }
        }
        guard let authorID else { throw Problem(.invalidRequest, "the field \"authorId\" is missing") }
        guard let text else { throw Problem(.invalidRequest, "the field \"text\" is missing") }
        return NewPost(authorID: authorID, text: text, attachments: attachments)
    }

    private static func readAttachment(_ part: MultipartFormData.Part, index: Int) throws(Problem)
        -> AttachmentUploadRecord
    {
        let field = "attachment \(index + 1)"
        guard index < maximumAttachments else {
            throw Problem(.invalidRequest, "a post may have at most \(maximumAttachments) attachments")
        }
        guard let fileName = part.fileName else {
            throw Problem(.invalidRequest, "\(field) must be a file part with a filename")
        }
        try InputRules.fileName(fileName, field: field)
        let contentType = part.contentType ?? "application/octet-stream"
        guard MediaType.isBareMediaType(contentType) else {
            throw Problem(.invalidRequest, "\(field) must have a media type such as image/png, without parameters")
        }
        guard !part.data.isEmpty else { throw Problem(.invalidRequest, "\(field) must not be empty") }
        guard part.data.count <= maximumAttachmentBytes else {
            throw Problem(
                .attachmentTooLarge,
                "\(field) is \(part.data.count) bytes; at most \(maximumAttachmentBytes) are accepted")
        }
        return AttachmentUploadRecord(fileName: fileName, contentType: contentType, byteCount: part.data.count)
    }
}
