public import ServiceCore

/// The feed upstream's API: timelines, posts and likes.
///
/// Each case is data; send it with ``FeedClient`` (which validates inputs first) or with a
/// `ServiceClient<FeedService>`. The exact requests and answers are specified in
/// `docs/upstreams-feed.md` (the conventions for every domain in `docs/upstreams.md`). The
/// acting user (the author of ``createPost(author:text:attachments:)``, the user of
/// ``like(post:user:)``) is in the body or path; the upstream trusts it because the request is
/// signed with the module's key.
public enum FeedService: Service, Equatable {
    /// `GET /v1/timelines/{user}?cursor=&limit=`: one page of a user's home timeline.
    case timeline(user: String, cursor: String?, limit: Int)
    /// `GET /v1/posts/{id}`: one post.
    case post(id: String)
    /// `POST /v1/posts`: a new post; a JSON body without attachments, `multipart/form-data` with them.
    case createPost(author: String, text: String, attachments: [AttachmentUpload])
    /// `PUT /v1/posts/{post}/likes/{user}`: `user` likes `post` (idempotent).
    case like(post: String, user: String)

    /// The upstream's error body.
    public typealias ErrorEnvelope = FeedErrorEnvelope

    /// `FeedModule`.
    public static var moduleName: String { FeedModuleIdentity.name }
}
