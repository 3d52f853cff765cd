import AppLogging
import Foundation
import RedisClient
import RedisTestSupport
import Testing

@testable import SwiftyDaemon

/// The Redis token cache: shared between clients, keyed by the token's SHA-256, expiring with
/// its entry; a Redis that is gone is a miss, counted, and the cache works again when it is back.
@Suite(.timeLimit(.minutes(2)))
struct RedisTokenCacheTests {
    @Test func anEntryStoredByOneDaemonIsFoundByAnother() async throws {
        try await RedisServer.with { server throws in
            try await RedisClients.with(server, count: 2) { clients throws in
                let first = RedisTokenCache(
                    client: clients[0], keyPrefix: "test:", health: SharedStateHealth(store: "token_cache"))
                let second = RedisTokenCache(
                    client: clients[1], keyPrefix: "test:", health: SharedStateHealth(store: "token_cache"))
                let now = Date()
                #expect(await second.lookup("tok-alice", now: now) == nil)
                let expiry = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + 30).rounded(.down))
                await first.store("tok-alice", entry: TokenCacheEntry(userID: "alice smith", expiresAt: expiry))
                await first.store("tok-bad", entry: TokenCacheEntry(userID: nil, expiresAt: expiry))
                #expect(
                    await second.lookup("tok-alice", now: now)
                        == TokenCacheEntry(userID: "alice smith", expiresAt: expiry))
                #expect(await second.lookup("tok-bad", now: now) == TokenCacheEntry(userID: nil, expiresAt: expiry))
                #expect(await second.lookup("tok-alice", now: expiry) == nil)
                #expect(await second.lookup("tok-other", now: now) == nil)

                // The key is the token's SHA-256 (FIPS 180-2's "abc" vector), never the token.
                #expect(
                    first.redisKey("abc")
                        == "test:token:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
                let keys = try await clients[0].send(["KEYS", "*"]).arrayValue?.compactMap(\.stringValue) ?? []
                #expect(keys.count == 2)
                #expect(!keys.contains { $0.contains("tok-") })
                let ttl = try await clients[0].send(["PTTL", RedisArgument(first.redisKey("tok-alice"))]).integerValue
                #expect(ttl.map { $0 > 0 && $0 <= 30_000 } == true)
            }
        }
    }

    @Test func aStoredValueInAnotherFormIsAMiss() {
        #expect(RedisTokenCache.decode("x 1 alice") == nil)
        #expect(RedisTokenCache.decode("a 1") == nil)
        #expect(RedisTokenCache.decode("a soon alice") == nil)
        #expect(RedisTokenCache.decode("i 1 alice") == nil)
        let entry = TokenCacheEntry(userID: "bob", expiresAt: Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(RedisTokenCache.decode(RedisTokenCache.encode(entry)) == entry)
    }

    @Test func redisGoneIsAMissCountedOnceLoggedAndRecovered() async throws {
        let server = try await RedisServer.start(stablePort: true)
        do {
            try await RedisClients.with(server) { clients throws in
                let log = InMemoryLogHandler()
                let health = SharedStateHealth(store: "token_cache", logger: Logger(label: "test", handler: log))
                let cache = RedisTokenCache(client: clients[0], keyPrefix: "test:", health: health)
                // Whole seconds: the stored form keeps milliseconds.
                let expiry = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 60).rounded(.down))
                let entry = TokenCacheEntry(userID: "alice", expiresAt: expiry)
                await cache.store("t", entry: entry)
                #expect(await cache.lookup("t", now: Date()) == entry)
                await server.kill()
                for _ in 0..<3 {
                    #expect(await cache.lookup("t", now: Date()) == nil)
                    await cache.store("t", entry: entry)
                }
                #expect(health.errorCount == 6)
                #expect(!health.isAvailable)
                try await server.restart()
                var stored = false
                for _ in 0..<200 where !stored {
                    await cache.store("t", entry: entry)
                    stored = health.isAvailable
                    if !stored { try await Task.sleep(for: .milliseconds(25)) }
                }
                #expect(stored)
                #expect(await cache.lookup("t", now: Date()) == entry)
                let lines = log.renderedLines
                #expect(lines.count { $0.contains("shared state unavailable") } == 1, "\(lines)")
                #expect(lines.count { $0.contains("shared state available again") } == 1, "\(lines)")
                #expect(!lines.joined().contains("\"t\""))
            }
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }
}
