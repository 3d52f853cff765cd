import Foundation
import ServiceCore

/// The feed upstream's answer bodies (`docs/upstreams-feed.md`, section 3).
enum FeedWire {
    /// An attachment's description.
    struct Attachment: Encodable {
        var id: String
        var fileName: String
        var contentType: String
        var byteCount: Int
    }

    /// A post; `attachments` is always present.
    struct Post: Encodable {
        var id: String
        var authorId: String
        var text: String
        var createdAt: String
        var likeCount: Int
        var attachments: [Attachment]

        init(_ record: PostRecord) {
            id = record.id
            authorId = record.authorID
            text = record.text
            createdAt = RFC3339Timestamp.string(from: record.createdAt)
            likeCount = record.likedBy.count
            attachments = record.attachments.map {
                Attachment(id: $0.id, fileName: $0.fileName, contentType: $0.contentType, byteCount: $0.byteCount)
            }
        }
    }
}
