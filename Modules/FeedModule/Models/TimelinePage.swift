/// One page of a timeline, newest post first: `{"items": [...], "nextCursor": "..." | null}`.
public struct TimelinePage: Codable, Sendable, Equatable {
    /// The posts on this page, newest first.
    public var items: [Post]
    /// The cursor of the next (older) page, or `nil` on the last page.
    public var nextCursor: String?

    /// Creates a page.
    public init(items: [Post], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
