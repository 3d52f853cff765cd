import Foundation

/// A user as the directory holds it, with follow counts.
struct UserRecord: Sendable, Equatable {
    var id: String
    var displayName: String
    var followerCount: Int
    var followingCount: Int
}

/// One follower of a user and the sequence number of the follow (higher is more recent).
struct FollowerEntry: Sendable, Equatable {
    var id: String
    var displayName: String
    var sequence: Int64
}

/// What a bearer token stands for.
struct SessionRecord: Sendable, Equatable {
    var userID: String
    var expiresAt: Date
}

/// How a follow or unfollow went.
enum FollowResult: Sendable, Equatable {
    case done
    case unknownActor
    case unknownTarget
    case followingSelf
}

/// The users, their follow relation and their sessions: the state behind the user upstream,
/// shared with the feed upstream (timelines follow it).
///
/// Implement it to back the sandbox with another store; ``InMemoryUserDirectory`` is the default.
protocol UserDirectory: Sendable {
    /// The user with this id, or `nil`.
    func user(_ id: String) -> UserRecord?
    /// Makes `actor` follow `target` (nothing changes when it already does).
    func follow(actor: String, target: String) -> FollowResult
    /// Makes `actor` stop following `target` (nothing changes when it does not).
    func unfollow(actor: String, target: String) -> FollowResult
    /// Followers of `id`, most recent follow first, those with a sequence below `before` when
    /// given; at most `limit`, and whether more follow. `nil` for an unknown user.
    func followers(of id: String, before: Int64?, limit: Int) -> (entries: [FollowerEntry], hasMore: Bool)?
    /// The ids `id` follows, or `nil` for an unknown user.
    func followedUsers(of id: String) -> Set<String>?
    /// The session a token stands for at `now`, or `nil` when unknown or expired.
    func session(forToken token: String, at now: Date) -> SessionRecord?
}
