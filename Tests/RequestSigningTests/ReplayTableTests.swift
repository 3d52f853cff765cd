import Foundation
import Testing

@testable import RequestSigning

/// The replay table must answer exactly, whatever its hashes do: these tests force tag
/// collisions, fill it to capacity, let entries expire and make it grow.
struct ReplayTableTests {
    private func key(_ keyID: String, _ nonce: String) throws -> ReplayTable.Key {
        let packed = Array(keyID.utf8).withUnsafeBufferPointer { id in
            Array(nonce.utf8).withUnsafeBufferPointer { ReplayTable.Key(keyID: id, nonce: $0) }
        }
        return try #require(packed)
    }

    @Test func keysPackUpToTheBoundAndKeepTheSeparator() throws {
        #expect(try key("k", String(repeating: "n", count: 45)) != key("k", String(repeating: "n", count: 44) + "m"))
        #expect(try key("ab", "c") != key("a", "bc"))
        #expect(try key("a", "") != key("", "a"))
        let fits = Array(String(repeating: "n", count: 45).utf8)
        let tooLong = Array(String(repeating: "n", count: 46).utf8)
        let id = Array("k".utf8)
        #expect(
            id.withUnsafeBufferPointer { id in fits.withUnsafeBufferPointer { ReplayTable.Key(keyID: id, nonce: $0) } }
                != nil)
        #expect(
            id.withUnsafeBufferPointer { id in tooLong.withUnsafeBufferPointer { ReplayTable.Key(keyID: id, nonce: $0) }
            }
                == nil)
    }

    /// With every tag equal, each probe meets entries of other keys: only exact keys may match.
    @Test(arguments: [UInt16(0), 0x0003])
    func collidingTagsNeverConfuseKeys(tagMask: UInt16) throws {
        var table = ReplayTable(capacity: 64, initialSlots: 8, tagMask: tagMask)
        let pairs = (0..<40).map { ("key-\($0 % 3)", "nonce-\($0)") } + [("ab", "c"), ("a", "bc")]
        for (keyID, nonce) in pairs {
            #expect(table.record(try key(keyID, nonce), expiresAt: 100, now: 1) == .fresh, "\(keyID) \(nonce)")
        }
        for (keyID, nonce) in pairs {
            #expect(table.record(try key(keyID, nonce), expiresAt: 100, now: 2) == .replayed, "\(keyID) \(nonce)")
        }
        // The same nonces under another key, and near misses, are new.
        #expect(table.record(try key("key-9", "nonce-1"), expiresAt: 100, now: 3) == .fresh)
        #expect(table.record(try key("key-1", "nonce-1 "), expiresAt: 100, now: 3) == .fresh)
        #expect(table.record(try key("abc", ""), expiresAt: 100, now: 3) == .fresh)
        #expect(table.liveCount == pairs.count + 3)
    }

    @Test func capacityFailsClosedUntilEntriesExpire() throws {
        var table = ReplayTable(capacity: 5, tagMask: 0)
        for index in 0..<5 {
            #expect(table.record(try key("k", "n\(index)"), expiresAt: 10, now: 1) == .fresh)
        }
        #expect(table.record(try key("k", "n5"), expiresAt: 10, now: 1) == .capacityExceeded)
        #expect(table.record(try key("k", "n5"), expiresAt: 10, now: 2) == .capacityExceeded)
        // A held nonce is still reported as a replay when the table is full.
        #expect(table.record(try key("k", "n0"), expiresAt: 10, now: 2) == .replayed)
        #expect(table.liveCount == 5)
        // At expiry the nonces are forgotten and the room is reused.
        #expect(table.record(try key("k", "n5"), expiresAt: 20, now: 10) == .fresh)
        #expect(table.liveCount == 1)
        #expect(table.record(try key("k", "n0"), expiresAt: 20, now: 11) == .fresh)
        #expect(table.record(try key("k", "n5"), expiresAt: 20, now: 11) == .replayed)
    }

    @Test func anExpiredNonceInPlaceIsRenewed() throws {
        var table = ReplayTable(capacity: 100)
        let nonce = try key("k", "n")
        #expect(table.record(nonce, expiresAt: 10, now: 1) == .fresh)
        #expect(table.record(nonce, expiresAt: 30, now: 10) == .fresh)
        #expect(table.record(nonce, expiresAt: 40, now: 29) == .replayed)
    }

    @Test func growsToItsBoundAndSweepsExpiredEntries() throws {
        var table = ReplayTable(capacity: 5_000, initialSlots: 8)
        for index in 0..<5_000 {
            #expect(table.record(try key("k", "a\(index)"), expiresAt: 100, now: 1) == .fresh)
        }
        #expect(table.slotCount > 8 && table.slotCount <= table.maximumSlots)
        #expect(table.record(try key("k", "extra"), expiresAt: 100, now: 1) == .capacityExceeded)
        for index in stride(from: 0, to: 5_000, by: 97) {
            #expect(table.record(try key("k", "a\(index)"), expiresAt: 100, now: 2) == .replayed)
        }
        // A steady stream: each second's nonces expire two seconds later.
        var now = 100.0
        for index in 0..<20_000 {
            if index % 1_000 == 0 { now += 1 }
            #expect(table.record(try key("k", "b\(index)"), expiresAt: now + 2, now: now) == .fresh)
        }
        #expect(table.liveCount <= 3_000)
        #expect(table.used <= table.slotCount)
        #expect(table.slotCount <= table.maximumSlots)
        #expect(table.record(try key("k", "b19999"), expiresAt: now + 2, now: now) == .replayed)
        #expect(table.record(try key("k", "a0"), expiresAt: now + 2, now: now) == .fresh)
    }

    @Test func longPairsAreExactAndCountTowardsCapacity() async {
        let guardian = InMemoryReplayGuard(capacity: 2)
        let start = Date(timeIntervalSince1970: 1_000)
        let expiry = start.addingTimeInterval(60)
        let long = String(repeating: "n", count: 60)
        #expect(
            await guardian.checkAndRemember(ReplayNonce(keyID: "k", nonce: long), expiresAt: expiry, now: start)
                == .fresh)
        #expect(
            await guardian.checkAndRemember(ReplayNonce(keyID: "k", nonce: long), expiresAt: expiry, now: start)
                == .replayed)
        #expect(
            await guardian.checkAndRemember(ReplayNonce(keyID: "k", nonce: long + "x"), expiresAt: expiry, now: start)
                == .fresh)
        #expect(
            await guardian.checkAndRemember(ReplayNonce(keyID: "k", nonce: "short"), expiresAt: expiry, now: start)
                == .capacityExceeded)
        #expect(guardian.count == 2)
        let later = start.addingTimeInterval(61)
        #expect(
            await guardian.checkAndRemember(
                ReplayNonce(keyID: "k", nonce: "short"), expiresAt: later.addingTimeInterval(60), now: later) == .fresh)
        #expect(guardian.count == 1)
    }
}
