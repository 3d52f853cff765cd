public import Foundation

/// Remembers what bearer tokens stand for, briefly, so not every app request introspects.
///
/// Implement it to share the cache between daemons (for example in Redis); the daemon uses
/// ``InMemoryTokenCache`` by default.
public protocol TokenCache: Sendable {
    /// The user id a token stood for when it was stored (`nil` inside for an inactive token),
    /// or `nil` when the token is not cached or its entry expired.
    func lookup(_ token: String, now: Date) async -> TokenCacheEntry?
    /// Stores what a token stands for until `expiresAt`.
    func store(_ token: String, entry: TokenCacheEntry) async
}

/// What a cached token stands for.
public struct TokenCacheEntry: Sendable, Equatable {
    /// The user, or `nil` for an inactive token.
    public var userID: String?
    /// When the entry stops being trusted.
    public var expiresAt: Date

    /// Creates an entry.
    public init(userID: String?, expiresAt: Date) {
        self.userID = userID
        self.expiresAt = expiresAt
    }
}
