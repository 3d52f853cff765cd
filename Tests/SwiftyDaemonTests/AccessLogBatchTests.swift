import ServiceTesting
import Synchronization
import Testing

@testable import SwiftyDaemon

/// Access lines written on an event loop share one write per loop turn; elsewhere each is
/// written at once.
struct AccessLogBatchTests {
    /// What a batch handed to its sink, one element per call.
    final class Sink: Sendable {
        let calls = Mutex<[[UInt8]]>([])

        func record(_ bytes: UnsafeRawBufferPointer) {
            calls.withLock { $0.append(Array(bytes)) }
        }

        var count: Int { calls.withLock { $0.count } }

        /// Waits (at most 5 s) until the sink has had at least `count` calls; returns them.
        func waitForCalls(_ count: Int) async throws -> [[UInt8]] {
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(5)
            while self.count < count && clock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            return calls.withLock { $0 }
        }
    }

    static func line(_ number: Int) -> [UInt8] { Array("{\"n\":\(number)}\n".utf8) }

    @Test func linesOfOneLoopTurnShareOneWriteInOrder() async throws {
        let sink = Sink()
        let batch = AccessLogBatch(eventLoops: EventLoopHost.loops, sink: sink.record)
        let callsWhileWriting = try await EventLoopHost.run {
            for number in 0..<5 { batch.write { $0.append(contentsOf: Self.line(number)) } }
            return sink.count
        }
        #expect(callsWhileWriting == 0, "lines were written before the loop's turn ended")
        let calls = try await sink.waitForCalls(1)
        #expect(calls == [(0..<5).flatMap(Self.line)])
    }

    /// The buffer a turn's lines were written from starts the next turn empty.
    @Test func eachTurnWritesOnlyItsOwnLines() async throws {
        let sink = Sink()
        let batch = AccessLogBatch(eventLoops: EventLoopHost.loops, sink: sink.record)
        for turn in 0..<3 {
            try await EventLoopHost.run {
                for number in 0..<4 { batch.write { $0.append(contentsOf: Self.line(turn * 10 + number)) } }
            }
            _ = try await sink.waitForCalls(turn + 1)
        }
        let calls = try await sink.waitForCalls(3)
        #expect(calls == (0..<3).map { turn in (0..<4).flatMap { Self.line(turn * 10 + $0) } })
    }

    @Test func linesOffALoopAreWrittenAtOnce() {
        let sink = Sink()
        let batch = AccessLogBatch(eventLoops: EventLoopHost.loops, sink: sink.record)
        batch.write { $0.append(contentsOf: Self.line(1)) }
        #expect(sink.count == 1)
        batch.write { $0.append(contentsOf: Self.line(2)) }
        #expect(sink.calls.withLock { $0 } == [Self.line(1), Self.line(2)])
    }

    @Test func aFullBatchIsWrittenWithoutWaitingForTheTurn() async throws {
        let sink = Sink()
        let batch = AccessLogBatch(eventLoops: EventLoopHost.loops, sink: sink.record)
        let long = Array(repeating: UInt8(ascii: "x"), count: 1000) + [UInt8(ascii: "\n")]
        let lineCount = AccessLogBatch.flushThreshold / long.count + 1
        let callsWhileWriting = try await EventLoopHost.run {
            for _ in 0..<lineCount { batch.write { $0.append(contentsOf: long) } }
            batch.write { $0.append(contentsOf: Self.line(0)) }
            return sink.count
        }
        #expect(callsWhileWriting > 0, "the batch past its threshold was not written at once")
        let calls = try await sink.waitForCalls(callsWhileWriting + 1)
        #expect(calls.count == callsWhileWriting + 1)
        #expect(Array(calls.joined()) == Array((0..<lineCount).map { _ in long }.joined()) + Self.line(0))
        // Whole lines in every write, at most 4096 bytes each: four of these lines.
        #expect(calls.dropLast().allSatisfy { $0.count == 4 * long.count || $0.count == lineCount % 4 * long.count })
        #expect(calls.last == Self.line(0))
    }

    @Test(arguments: [
        ([10, 10, 10], [30]),
        ([4000, 96, 1], [4096, 1]),
        ([4000, 97], [4000, 97]),
        ([5000, 10, 20], [5000, 30]),
        ([10, 5000, 10], [10, 5000, 10]),
        ([4096, 4096], [4096, 4096]),
    ])
    func writesHoldWholeLinesUpToTheAtomicLimit(lineLengths: [Int], writeLengths: [Int]) {
        let bytes = lineLengths.flatMap { Array(repeating: UInt8(ascii: "a"), count: $0 - 1) + [UInt8(ascii: "\n")] }
        let chunks = bytes.withUnsafeBytes { AccessLogBatch.chunks(of: $0) }
        #expect(chunks.map(\.count) == writeLengths)
        #expect(chunks.first?.lowerBound == 0 && chunks.last?.upperBound == bytes.count)
        #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }
}
