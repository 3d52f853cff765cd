import Foundation
import RequestSigning
import Testing

struct InMemoryReplayGuardTests {
    let start = Date(timeIntervalSince1970: 1_000)

    @Test func remembersUntilExpiry() async {
        let guardian = InMemoryReplayGuard(capacity: 10)
        let expiry = start.addingTimeInterval(60)
        #expect(
            await guardian.checkAndRemember(ReplayNonce(keyID: "k", nonce: "a"), expiresAt: expiry, now: start)
                == .fresh)
        #expect(
            await guardian.checkAndRemember(ReplayNonce(keyID: "k", nonce: "a"), expiresAt: expiry, now: start)
                == .replayed)
        // Nonces are per key.
        #expect(
            await guardian.checkAndRemember(ReplayNonce(keyID: "k2", nonce: "a"), expiresAt: expiry, now: start)
                == .fresh)
        // After expiry the nonce may be used again (its old signature is no longer acceptable).
        let later = start.addingTimeInterval(61)
        #expect(
            await guardian.checkAndRemember(
                ReplayNonce(keyID: "k", nonce: "a"), expiresAt: later.addingTimeInterval(60), now: later)
                == .fresh)
    }

    @Test func capacityIsBoundedAndExpiredEntriesMakeRoom() async {
        let guardian = InMemoryReplayGuard(capacity: 3)
        for nonce in ["a", "b", "c"] {
            #expect(
                await guardian.checkAndRemember(
                    ReplayNonce(keyID: "k", nonce: nonce), expiresAt: start.addingTimeInterval(10), now: start)
                    == .fresh)
        }
        #expect(
            await guardian.checkAndRemember(
                ReplayNonce(keyID: "k", nonce: "d"), expiresAt: start.addingTimeInterval(10), now: start)
                == .capacityExceeded)
        #expect(guardian.count == 3)
        let later = start.addingTimeInterval(11)
        #expect(
            await guardian.checkAndRemember(
                ReplayNonce(keyID: "k", nonce: "d"), expiresAt: later.addingTimeInterval(10), now: later)
                == .fresh)
        #expect(guardian.count == 1)
    }

    @Test func manyEntriesStayBounded() async {
        let guardian = InMemoryReplayGuard(capacity: 500)
        var accepted = 0
        for index in 0..<5_000 {
            let now = start.addingTimeInterval(Double(index) / 10)
            let result = await guardian.checkAndRemember(
                ReplayNonce(keyID: "k", nonce: "n\(index)"), expiresAt: now.addingTimeInterval(30), now: now)
            if result == .fresh { accepted += 1 }
            #expect(guardian.count <= 500)
        }
        #expect(accepted == 5_000)
    }
}

/// Sizing the in-memory guard from a request rate and a window.
struct InMemoryReplayGuardSizingTests {
    @Test func capacityIsRateTimesWindowTimesHeadroom() {
        #expect(InMemoryReplayGuard.capacity(forRequestsPerSecond: 1_000, window: .seconds(331)) == 662_000)
        #expect(
            InMemoryReplayGuard.capacity(forRequestsPerSecond: 2_500, window: .milliseconds(91_500), headroom: 1.5)
                == 343_125)
        // A floor for idle services, a ceiling for absurd rates, and at least rate × window.
        #expect(InMemoryReplayGuard.capacity(forRequestsPerSecond: 0, window: .seconds(331)) == 1_000)
        #expect(InMemoryReplayGuard.capacity(forRequestsPerSecond: 1e12, window: .seconds(331)) == 1 << 30)
        #expect(InMemoryReplayGuard.capacity(forRequestsPerSecond: 100, window: .seconds(331), headroom: 0.1) == 33_100)
        let sized = InMemoryReplayGuard(expectedRequestsPerSecond: 1_000, window: .seconds(91))
        #expect(sized.capacity == 182_000)
        #expect(sized.count == 0)
    }

    /// The documented memory: a table of a power of two of at least twice the capacity, 6 bytes
    /// of index per slot, two logs of three quarters as many 56-byte entries.
    @Test func maximumMemoryFollowsTheLargestTable() {
        for capacity in [1, 1_000, 100_000, 662_000] {
            var slots = 8
            while slots < 2 * capacity { slots *= 2 }
            #expect(InMemoryReplayGuard.maximumMemory(forCapacity: capacity) == slots * 6 + 2 * (slots / 4 * 3) * 56)
        }
        #expect(InMemoryReplayGuard(capacity: 100_000).maximumMemory < 25_000_000)
    }
}
