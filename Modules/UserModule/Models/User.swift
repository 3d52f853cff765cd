/// A user's profile, as `GET /v1/users/{id}` answers it.
public struct User: Codable, Sendable, Equatable {
    /// The user's id.
    public var id: String
    /// The name shown to other users.
    public var displayName: String
    /// How many users follow this one.
    public var followerCount: Int
    /// How many users this one follows.
    public var followingCount: Int

    /// Creates a profile.
    public init(id: String, displayName: String, followerCount: Int, followingCount: Int) {
        self.id = id
        self.displayName = displayName
        self.followerCount = followerCount
        self.followingCount = followingCount
    }
}
