/// One page of a user's followers: `{"items": [...], "nextCursor": "..." | null}`.
public struct FollowersPage: Codable, Sendable, Equatable {
    /// The followers on this page, in the upstream's order.
    public var items: [UserSummary]
    /// The cursor of the next page, or `nil` on the last page.
    public var nextCursor: String?

    /// Creates a page.
    public init(items: [UserSummary], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
