import Foundation

/// An attachment's description (the sandbox keeps no file bytes).
struct AttachmentRecord: Sendable, Equatable {
    var id: String
    var fileName: String
    var contentType: String
    var byteCount: Int
}

/// A post as the store holds it.
struct PostRecord: Sendable, Equatable {
    var id: String
    var authorID: String
    var text: String
    /// Whole seconds, so that ordering matches what answers show.
    var createdAt: Date
    var likedBy: Set<String>
    var attachments: [AttachmentRecord]

    /// `createdAt` in whole seconds since 1970.
    var createdAtSeconds: Int64 { Int64(createdAt.timeIntervalSince1970.rounded(.down)) }

    /// Whether this post comes after (is older than) the position in timeline order: newest
    /// first by `createdAt`, then by id descending.
    func isOlder(than position: (createdAt: Int64, postID: String)) -> Bool {
        createdAtSeconds < position.createdAt
            || (createdAtSeconds == position.createdAt && id.utf8.lexicographicallyPrecedes(position.postID.utf8))
    }
}

/// A new attachment's description, before it has an id.
struct AttachmentUploadRecord: Sendable, Equatable {
    var fileName: String
    var contentType: String
    var byteCount: Int
}

/// The posts and their likes: the state behind the feed upstream.
///
/// Implement it to back the sandbox with another store; ``InMemoryPostStore`` is the default.
protocol PostStore: Sendable {
    /// The post with this id, or `nil`.
    func post(_ id: String) -> PostRecord?
    /// Posts by `authors`, newest first (then id descending), older than `position` when given;
    /// at most `limit`, and whether more follow.
    func timeline(authors: Set<String>, olderThan position: (createdAt: Int64, postID: String)?, limit: Int)
        -> (posts: [PostRecord], hasMore: Bool)
    /// Stores a new post.
    func create(authorID: String, text: String, attachments: [AttachmentUploadRecord], at date: Date) -> PostRecord
    /// Records that `user` likes the post (once); the post, or `nil` when unknown.
    func like(post id: String, by user: String) -> PostRecord?
}
