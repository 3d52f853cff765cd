public import Foundation
import Synchronization

/// A bounded in-memory ``TokenCache``: at most `capacity` entries; when full, the entry closest
/// to expiry goes first (an expired one before any live one).
///
/// Making room costs time logarithmic in the capacity, so a client that sends fresh tokens to a
/// full cache costs each store a few comparisons under the cache's lock, not a pass over every
/// entry.
public final class InMemoryTokenCache: TokenCache {
    private let table: Mutex<ExpiringTable<String?, Date>>

    /// Creates a cache.
    /// - Parameter capacity: The most entries held at once (at least 1).
    public init(capacity: Int = 10_000) {
        table = Mutex(ExpiringTable(capacity: capacity))
    }

    /// The entries held now, expired ones included until they are looked up or pushed out.
    var count: Int { table.withLock { $0.count } }

    /// The expiry records held now, stale ones included.
    var expiryRecordCount: Int { table.withLock { $0.recordCount } }

    /// The live entry for a token; an expired one is dropped.
    public func lookup(_ token: String, now: Date) async -> TokenCacheEntry? {
        table.withLock { table in
            guard let (userID, expiresAt) = table.entry(for: token) else { return nil }
            guard expiresAt > now else {
                table.remove(token)
                return nil
            }
            return TokenCacheEntry(userID: userID, expiresAt: expiresAt)
        }
    }

    /// Stores an entry, pushing out the entry closest to expiry when the cache is full.
    public func store(_ token: String, entry: TokenCacheEntry) async {
        table.withLock { table in
            if table.isFull && table.entry(for: token) == nil { table.removeSoonestToExpire() }
            table.set(token, value: entry.userID, expiry: entry.expiresAt)
        }
    }
}
