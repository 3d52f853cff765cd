/// The JSON body of `POST /v1/posts` without attachments: `{"authorId": "...", "text": "..."}`.
struct CreatePostRequestBody: Encodable, Sendable, Equatable {
    /// The author's user id.
    var authorId: String
    /// The text.
    var text: String
}
