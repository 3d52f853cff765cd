import Foundation
import Testing

@testable import SandboxUpstreams
@testable import SwiftyDaemon

struct InMemoryTokenCacheTests {
    private static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    private static func entry(_ user: String?, in seconds: Double) -> TokenCacheEntry {
        TokenCacheEntry(userID: user, expiresAt: epoch + seconds)
    }

    /// A cache of `capacity` with `stores` (token, user, seconds to expiry) made in order.
    private static func cache(capacity: Int, _ stores: [(String, String?, Double)]) async -> InMemoryTokenCache {
        let cache = InMemoryTokenCache(capacity: capacity)
        for (token, user, seconds) in stores { await cache.store(token, entry: entry(user, in: seconds)) }
        return cache
    }

    @Test func fullCachePushesOutTheEntryClosestToExpiry() async {
        let cache = await Self.cache(
            capacity: 3, [("a", "alice", 30), ("b", "bob", 10), ("c", "carol", 20), ("d", "dave", 40)])
        #expect(await cache.lookup("b", now: Self.epoch) == nil)
        for (token, user) in [("a", "alice"), ("c", "carol"), ("d", "dave")] {
            #expect(await cache.lookup(token, now: Self.epoch)?.userID == user)
        }
        await cache.store("e", entry: Self.entry(nil, in: 50))
        #expect(await cache.lookup("c", now: Self.epoch) == nil)
        #expect(await cache.lookup("e", now: Self.epoch) == Self.entry(nil, in: 50))
        #expect(cache.count == 3)
    }

    @Test func expiredEntryGoesBeforeLiveOnes() async {
        let cache = await Self.cache(capacity: 2, [("live", "alice", 60), ("old", "bob", -1), ("new", "carol", 5)])
        #expect(await cache.lookup("live", now: Self.epoch)?.userID == "alice")
        #expect(await cache.lookup("new", now: Self.epoch)?.userID == "carol")
        #expect(cache.count == 2)
    }

    /// A replaced entry's earlier expiry no longer counts: the entry is pushed out by its latest.
    @Test func replacedEntryKeepsItsLatestExpiry() async {
        let cache = await Self.cache(
            capacity: 2, [("a", "alice", 1), ("b", "bob", 10), ("a", "alice", 100), ("c", "carol", 50)])
        #expect(await cache.lookup("b", now: Self.epoch) == nil)
        #expect(await cache.lookup("a", now: Self.epoch) == Self.entry("alice", in: 100))
        #expect(await cache.lookup("c", now: Self.epoch)?.userID == "carol")
    }

    /// A client sending fresh tokens to a full cache cannot grow it, nor the records kept to
    /// choose what goes; every token just stored is there.
    @Test func freshTokensKeepTheCacheBounded() async {
        let capacity = 100
        let cache = InMemoryTokenCache(capacity: capacity)
        for index in 0..<5_000 {
            let token = "fresh-\(index)"
            await cache.store(token, entry: Self.entry(nil, in: Double(index % 97)))
            #expect(await cache.lookup(token, now: Self.epoch - 1) != nil)
        }
        #expect(cache.count == capacity)
        #expect(cache.expiryRecordCount <= 2 * capacity + 16)
    }

    @Test func repeatedStoresOfOneTokenStayBounded() async {
        let cache = InMemoryTokenCache(capacity: 10)
        for index in 0..<5_000 {
            await cache.store("same", entry: Self.entry("alice", in: Double(index)))
            _ = await cache.lookup("gone-\(index)", now: Self.epoch)
        }
        #expect(cache.count == 1)
        #expect(cache.expiryRecordCount <= 2 * 10 + 16)
        #expect(await cache.lookup("same", now: Self.epoch) == Self.entry("alice", in: 4_999))
    }

    /// Against a reference that keeps every entry in one dictionary and, when full, removes the
    /// entry with the earliest expiry by a scan: the same answers over random stores and
    /// lookups, with expiries and times that make entries expire on the way.
    @Test func agreesWithAScanningReference() async {
        var generator = SeededGenerator(seed: 0x5EED_70CE)
        let capacity = 8
        let cache = InMemoryTokenCache(capacity: capacity)
        var reference: [String: TokenCacheEntry] = [:]
        var stamp = 0.0
        for _ in 0..<4_000 {
            let token = "t\(generator.next() % 20)"
            if generator.next() % 2 == 0 {
                // Distinct expiries, so that the entry closest to expiry is one entry.
                stamp += 0.001
                let entry = Self.entry(
                    generator.next() % 3 == 0 ? nil : "user-\(token)", in: Double(generator.next() % 40) + stamp)
                if reference[token] == nil && reference.count >= capacity,
                    let soonest = reference.min(by: { $0.value.expiresAt < $1.value.expiresAt })
                {
                    reference[soonest.key] = nil
                }
                reference[token] = entry
                await cache.store(token, entry: entry)
            } else {
                let now = Self.epoch + Double(generator.next() % 40)
                var expected = reference[token]
                if let live = expected, live.expiresAt <= now {
                    reference[token] = nil
                    expected = nil
                }
                #expect(await cache.lookup(token, now: now) == expected)
            }
        }
        #expect(cache.count == reference.count)
    }

    @Test func concurrentStoresAndLookupsStayWithinCapacity() async {
        let capacity = 64
        let cache = InMemoryTokenCache(capacity: capacity)
        await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var found = 0
                    for index in 0..<1_000 {
                        let token = "w\(worker)-\(index % 50)"
                        await cache.store(token, entry: Self.entry("user-\(worker)", in: Double(index)))
                        if await cache.lookup(token, now: Self.epoch - 1)?.userID == "user-\(worker)" { found += 1 }
                    }
                    return found
                }
            }
            for await found in group { #expect(found > 0) }
        }
        #expect(cache.count <= capacity)
    }
}
