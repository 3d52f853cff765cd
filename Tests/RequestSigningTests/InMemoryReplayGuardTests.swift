import Foundation
import RequestSigning
import Testing

struct InMemoryReplayGuardTests {
    let start = Date(timeIntervalSince1970: 1_000)

    @Test func remembersUntilExpiry() async {
        let guardian = InMemoryReplayGuard(capacity: 10)
        let expiry = start.addingTimeInterval(60)
        #expect(await guardian.checkAndRemember(nonce: "a", keyID: "k", expiresAt: expiry, now: start) == .fresh)
        #expect(await guardian.checkAndRemember(nonce: "a", keyID: "k", expiresAt: expiry, now: start) == .replayed)
        // Nonces are per key.
        #expect(await guardian.checkAndRemember(nonce: "a", keyID: "k2", expiresAt: expiry, now: start) == .fresh)
        // After expiry the nonce may be used again (its old signature is no longer acceptable).
        let later = start.addingTimeInterval(61)
        #expect(
            await guardian.checkAndRemember(nonce: "a", keyID: "k", expiresAt: later.addingTimeInterval(60), now: later)
                == .fresh)
    }

    @Test func capacityIsBoundedAndExpiredEntriesMakeRoom() async {
        let guardian = InMemoryReplayGuard(capacity: 3)
        for nonce in ["a", "b", "c"] {
            #expect(
                await guardian.checkAndRemember(
                    nonce: nonce, keyID: "k", expiresAt: start.addingTimeInterval(10), now: start)
                    == .fresh)
        }
        #expect(
            await guardian.checkAndRemember(nonce: "d", keyID: "k", expiresAt: start.addingTimeInterval(10), now: start)
                == .capacityExceeded)
        #expect(guardian.count == 3)
        let later = start.addingTimeInterval(11)
        #expect(
            await guardian.checkAndRemember(nonce: "d", keyID: "k", expiresAt: later.addingTimeInterval(10), now: later)
                == .fresh)
        #expect(guardian.count == 1)
    }

    @Test func manyEntriesStayBounded() async {
        let guardian = InMemoryReplayGuard(capacity: 500)
        var accepted = 0
        for index in 0..<5_000 {
            let now = start.addingTimeInterval(Double(index) / 10)
            let result = await guardian.checkAndRemember(
                nonce: "n\(index)", keyID: "k", expiresAt: now.addingTimeInterval(30), now: now)
            if result == .fresh { accepted += 1 }
            #expect(guardian.count <= 500)
        }
        #expect(accepted == 5_000)
    }
}
