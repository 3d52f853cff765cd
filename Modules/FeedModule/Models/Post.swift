public import Foundation
import ServiceCore

/// A post, as `GET /v1/posts/{id}`, `POST /v1/posts` and timelines answer it.
public struct Post: Codable, Sendable, Equatable {
    /// The post's id.
    public var id: String
    /// The author's user id.
    public var authorId: String
    /// The text.
    public var text: String
    /// When it was posted (RFC 3339 on the wire).
    public var createdAt: Date
    /// How many users like it.
    public var likeCount: Int
    /// Its attachments, in upload order (an empty list when none).
    public var attachments: [Attachment]

    /// Creates a post.
    public init(
        id: String,
        authorId: String,
        text: String,
        createdAt: Date,
        likeCount: Int,
        attachments: [Attachment] = []
    ) {
        self.id = id
        self.authorId = authorId
        self.text = text
        self.createdAt = createdAt
        self.likeCount = likeCount
        self.attachments = attachments
    }

    private enum CodingKeys: String, CodingKey {
        case id, authorId, text, createdAt, likeCount, attachments
    }

    /// Decodes a post; `createdAt` is RFC 3339 text and a missing `attachments` is empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        authorId = try container.decode(String.self, forKey: .authorId)
        text = try container.decode(String.self, forKey: .text)
        createdAt = try container.decodeRFC3339(forKey: .createdAt)
        likeCount = try container.decode(Int.self, forKey: .likeCount)
        attachments = try container.decodeIfPresent([Attachment].self, forKey: .attachments) ?? []
    }

    /// Encodes a post with `createdAt` as RFC 3339 text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(authorId, forKey: .authorId)
        try container.encode(text, forKey: .text)
        try container.encodeRFC3339(createdAt, forKey: .createdAt)
        try container.encode(likeCount, forKey: .likeCount)
        try container.encode(attachments, forKey: .attachments)
    }
}
