import Foundation
import ServiceCore

/// The user upstream's answer bodies (`docs/upstreams-user.md`, section 2).
enum UserWire {
    /// A profile.
    struct User: Encodable {
        var id: String
        var displayName: String
        var followerCount: Int
        var followingCount: Int

        init(_ record: UserRecord) {
            id = record.id
            displayName = record.displayName
            followerCount = record.followerCount
            followingCount = record.followingCount
        }
    }

    /// A user in a list.
    struct UserSummary: Encodable {
        var id: String
        var displayName: String
    }

    /// What a token stands for; `userId` and `expiresAt` only when active.
    struct Introspection: Encodable {
        var active: Bool
        var userId: String?
        var expiresAt: String?

        init(_ session: SessionRecord?) {
            active = session != nil
            userId = session?.userID
            expiresAt = session.map { RFC3339Timestamp.string(from: $0.expiresAt) }
        }
    }
}
