import Foundation
import RedisClient
import RequestSigning

/// A ``TokenCache`` in Redis, shared by every daemon that uses the same Redis and key prefix: a
/// token one daemon introspected is trusted by the others until its entry expires.
///
/// The key is the SHA-256 of the token in hex (`<prefix>token:<hex>`), never the token itself; the
/// value says what it stands for and until when (`a <ms since 1970> <user id>` for an active
/// token, `i <ms since 1970>` for an inactive one), and Redis drops it then (`PX`). A Redis that
/// cannot be reached is a miss (the daemon introspects the token itself), counted and logged once
/// per outage by the ``SharedStateHealth`` it is given.
final class RedisTokenCache: TokenCache {
    private let client: RedisClient
    private let keyPrefix: String
    private let health: SharedStateHealth

    /// Creates a cache.
    /// - Parameters:
    ///   - client: The daemon's Redis client.
    ///   - keyPrefix: Put before `token:` and the token's hash.
    ///   - health: Counts failed calls and logs outages.
    init(client: RedisClient, keyPrefix: String, health: SharedStateHealth) {
        self.client = client
        self.keyPrefix = keyPrefix
        self.health = health
    }

    /// The Redis key of `token`.
    func redisKey(_ token: String) -> String {
        // SHA-256 of bytes in memory cannot fail; an empty digest would only make every token share one key prefix.
        let digest = (try? DigestAlgorithm.sha256.hash(Array(token.utf8))) ?? []
        let hexDigits = Array("0123456789abcdef".utf8)
        var text = Array((keyPrefix + "token:").utf8)
        for byte in digest {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    func lookup(_ token: String, now: Date) async -> TokenCacheEntry? {
        let reply: RedisValue
        do {
            reply = try await client.send([RedisArgument("GET"), RedisArgument(redisKey(token))])
            health.recordSuccess()
        } catch {
            health.recordFailure(error)
            return nil
        }
        guard let text = reply.stringValue, let entry = Self.decode(text), entry.expiresAt > now else { return nil }
        return entry
    }

    func store(_ token: String, entry: TokenCacheEntry) async {
        let milliseconds = Int((entry.expiresAt.timeIntervalSinceNow * 1000).rounded(.up))
        guard milliseconds > 0 else { return }
        do {
            _ = try await client.send([
                "SET", RedisArgument(redisKey(token)), RedisArgument(Self.encode(entry)), "PX",
                RedisArgument(milliseconds),
            ])
            health.recordSuccess()
        } catch {
            health.recordFailure(error)
        }
    }

    /// The stored form of an entry.
    static func encode(_ entry: TokenCacheEntry) -> String {
        let milliseconds = Int64((entry.expiresAt.timeIntervalSince1970 * 1000).rounded(.down))
        guard let user = entry.userID else { return "i \(milliseconds)" }
        return "a \(milliseconds) \(user)"
    }

    /// The entry of a stored value, or `nil` for a value in another form (a miss).
    static func decode(_ text: String) -> TokenCacheEntry? {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, let milliseconds = Int64(parts[1]) else { return nil }
        let expiresAt = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        switch (parts[0], parts.count) {
        case ("i", 2): return TokenCacheEntry(userID: nil, expiresAt: expiresAt)
        case ("a", 3) where !parts[2].isEmpty: return TokenCacheEntry(userID: String(parts[2]), expiresAt: expiresAt)
        default: return nil
        }
    }
}
