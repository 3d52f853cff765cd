import EventLoops
import Testing

struct FIFOQueueTests {
    @Test func takesInTheOrderQueuedAcrossCompactions() {
        var queue = FIFOQueue<Int>()
        var expected = 0
        // Enough takes to pass the compaction threshold several times, with appends in between.
        for round in 0..<10 {
            for value in (round * 100)..<(round * 100 + 100) { queue.append(value) }
            for _ in 0..<70 {
                #expect(queue.popFirst() == expected)
                expected += 1
            }
        }
        #expect(queue.count == 300)
        #expect(queue.first == expected)
        #expect(Array(queue.removeAll()) == Array(expected..<1_000))
        #expect(queue.isEmpty && queue.popFirst() == nil && queue.first == nil)
    }

    @Test func removesTheFirstMatchOnlyAmongTheQueued() {
        var queue = FIFOQueue<Int>()
        for value in [1, 2, 3, 2] { queue.append(value) }
        #expect(queue.popFirst() == 1)
        #expect(queue.removeFirst { $0 == 1 } == nil)
        #expect(queue.removeFirst { $0 == 2 } == 2)
        #expect(Array(queue.removeAll()) == [3, 2])
    }
}
