/// A user as listed in a page of followers.
public struct UserSummary: Codable, Sendable, Equatable {
    /// The user's id.
    public var id: String
    /// The name shown to other users.
    public var displayName: String

    /// Creates a summary.
    public init(id: String, displayName: String) {
        self.id = id
        self.displayName = displayName
    }
}
