public import ServiceCore

extension FeedService {
    /// The case's name for logs and metrics, spelled out: the protocol's default finds it by
    /// reflection, which costs microseconds on every call.
    public var operationName: String {
        switch self {
        case .timeline: "timeline"
        case .post: "post"
        case .createPost: "createPost"
        case .like: "like"
        }
    }

    /// The case's path; identifiers are percent-encoded as single segments.
    public var path: RequestPath {
        switch self {
        case .timeline(let user, _, _): "/v1/timelines/\(user)"
        case .post(let id): "/v1/posts/\(id)"
        case .createPost: "/v1/posts"
        case .like(let post, let user): "/v1/posts/\(post)/likes/\(user)"
        }
    }

    /// The case's method.
    public var method: HTTPMethod {
        switch self {
        case .timeline, .post: .get
        case .createPost: .post
        case .like: .put
        }
    }

    /// The timeline's query; the new post as JSON, or as `multipart/form-data` when it has
    /// attachments (fields `authorId` and `text`, then one `attachment` file part each).
    public var task: RequestTask {
        switch self {
        case .timeline(_, let cursor, let limit):
            return .query(["cursor": cursor.map(QueryValue.string), "limit": .int(limit)])
        case .post, .like:
            return .plain
        case .createPost(let author, let text, let attachments) where attachments.isEmpty:
            return .json(CreatePostRequestBody(authorId: author, text: text), encoder: SortedKeysJSONEncoder())
        case .createPost(let author, let text, let attachments):
            let fields: [MultipartPart] = [.field("authorId", author), .field("text", text)]
            let files = attachments.map {
                MultipartPart.file("attachment", fileName: $0.fileName, contentType: $0.contentType, data: $0.data)
            }
            return .multipart(fields + files)
        }
    }
}
