import Testing

@testable import SwiftyDaemon

struct ExpiringTableTests {
    @Test func removesEntriesInOrderOfExpiry() {
        var table = ExpiringTable<String, Int>(capacity: 4)
        for (key, expiry) in [("c", 30), ("a", 10), ("d", 40), ("b", 20)] { table.set(key, value: key, expiry: expiry) }
        #expect(table.isFull)
        var order: [String] = []
        for _ in 0..<4 {
            let held = ["a", "b", "c", "d"].filter { table.entry(for: $0) != nil }
            let removed = table.removeSoonestToExpire()
            #expect(removed)
            order += held.filter { table.entry(for: $0) == nil }
        }
        #expect(order == ["a", "b", "c", "d"])
        let removedFromEmpty = table.removeSoonestToExpire()
        #expect(!removedFromEmpty)
        #expect(table.count == 0)
    }

    @Test func aLimitKeepsEntriesThatExpireLater() {
        var table = ExpiringTable<Void, Int>(capacity: 2)
        table.set("early", value: (), expiry: 5)
        table.set("late", value: (), expiry: 50)
        let beforeLimit = table.removeSoonestToExpire(notAfter: 4)
        #expect(!beforeLimit)
        let atLimit = table.removeSoonestToExpire(notAfter: 5)
        #expect(atLimit)
        #expect(table.entry(for: "early") == nil)
        let laterThanLimit = table.removeSoonestToExpire(notAfter: 49)
        #expect(!laterThanLimit)
        #expect(table.entry(for: "late")?.expiry == 50)
    }

    /// Records left by replaced and removed entries are skipped, never taken for the entry.
    @Test func staleRecordsAreSkipped() {
        var table = ExpiringTable<Int, Int>(capacity: 3)
        table.set("a", value: 1, expiry: 1)
        table.set("b", value: 2, expiry: 2)
        table.set("c", value: 3, expiry: 3)
        table.set("a", value: 4, expiry: 100)
        table.remove("b")
        let first = table.removeSoonestToExpire()
        #expect(first)
        #expect(table.entry(for: "c") == nil)
        #expect(table.entry(for: "a")?.value == 4)
        let second = table.removeSoonestToExpire()
        #expect(second)
        #expect(table.count == 0)
    }

    /// However keys are written, replaced and removed, the heap stays within twice the capacity
    /// plus 16 records, and each removal still takes an entry with the earliest expiry.
    @Test func recordsStayBoundedUnderChurn() {
        var table = ExpiringTable<Int, Int>(capacity: 50)
        for round in 0..<20_000 {
            let key = "k\(round % 70)"
            if round % 7 == 0 {
                table.remove(key)
            } else {
                table.set(key, value: round, expiry: (round * 7_919) % 1_000)
            }
            if table.count > 50 { table.removeSoonestToExpire() }
            #expect(table.recordCount <= 2 * 50 + 16)
        }
        let keys = (0..<70).map { "k\($0)" }
        // Bounded: at most 50 entries are held, and each pass must remove one.
        for _ in 0..<50 where table.count > 0 {
            let expiries = Dictionary(
                uniqueKeysWithValues: keys.compactMap { key in table.entry(for: key).map { (key, $0.expiry) } })
            let removed = table.removeSoonestToExpire()
            #expect(removed)
            let gone = expiries.keys.filter { table.entry(for: $0) == nil }
            #expect(gone.map { expiries[$0]! } == [expiries.values.min()!])
        }
        #expect(table.count == 0)
    }
}
