public import ServiceCore

/// The feed upstream, with types: each method validates its inputs, sends one ``FeedService``
/// case and decodes the answer.
///
/// ```swift
/// let feed = try FeedClient(domain: .init(environment: .production), transport: transport)
/// let page = try await feed.timeline(user: "alice", limit: 20)
/// ```
///
/// Every method throws ``ServiceError``: code `invalidRequest` for bad input (nothing is sent),
/// `unacceptableStatus` with a ``FeedErrorEnvelope`` for a non-2xx answer, and the client's other
/// codes for transport and decoding failures.
public struct FeedClient: ModuleClient {
    /// The module's identity, whose known base URLs the domain initializer uses.
    public typealias Module = FeedModuleIdentity

    /// The generic client underneath, for raw access and ``ServiceClient/makeRequest(_:)``.
    public let serviceClient: ServiceClient<FeedService>

    /// Wraps a client made at the composition root.
    public init(_ serviceClient: ServiceClient<FeedService>) {
        self.serviceClient = serviceClient
    }

    /// One page of a user's home timeline (their posts and those of the users they follow),
    /// newest first.
    /// - Parameters:
    ///   - user: The user's id.
    ///   - cursor: The previous page's ``TimelinePage/nextCursor``, or `nil` for the first page.
    ///   - limit: The page size, 1...100.
    public func timeline(user: String, cursor: String? = nil, limit: Int = 20) async throws -> TimelinePage {
        try await serviceClient.send(.timeline(user: user, cursor: cursor, limit: limit), as: TimelinePage.self)
    }

    /// One post.
    public func post(id: String) async throws -> Post {
        try await serviceClient.send(.post(id: id), as: Post.self)
    }

    /// Publishes a post and returns it as stored.
    /// - Parameters:
    ///   - author: The author's user id (the acting user).
    ///   - text: 1-500 characters.
    ///   - attachments: Up to 4 files; with any, the request is `multipart/form-data`.
    public func createPost(author: String, text: String, attachments: [AttachmentUpload] = []) async throws -> Post {
        try await serviceClient.send(.createPost(author: author, text: text, attachments: attachments), as: Post.self)
    }

    /// Makes `user` like `post`; liking twice is not an error.
    public func like(post: String, user: String) async throws {
        _ = try await serviceClient.send(.like(post: post, user: user))
    }
}
