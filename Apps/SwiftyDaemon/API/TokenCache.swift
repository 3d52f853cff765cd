public import Foundation
import Synchronization

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

/// A bounded in-memory ``TokenCache``: at most `capacity` entries; when full, expired entries
/// go first, then the one closest to expiry.
public final class InMemoryTokenCache: TokenCache {
    private let capacity: Int
    private let entries = Mutex<[String: TokenCacheEntry]>([:])

    /// Creates a cache.
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// The live entry for a token.
    public func lookup(_ token: String, now: Date) async -> TokenCacheEntry? {
        entries.withLock { all in
            guard let entry = all[token] else { return nil }
            guard entry.expiresAt > now else {
                all[token] = nil
                return nil
            }
            return entry
        }
    }

    /// Stores an entry, evicting when full.
    public func store(_ token: String, entry: TokenCacheEntry) async {
        entries.withLock { all in
            if all[token] == nil && all.count >= capacity {
                let now = Date()
                all = all.filter { $0.value.expiresAt > now }
                if all.count >= capacity, let soonest = all.min(by: { $0.value.expiresAt < $1.value.expiresAt }) {
                    all[soonest.key] = nil
                }
            }
            all[token] = entry
        }
    }
}
