import Foundation
import Synchronization
import Testing

@testable import EventLoops

/// A loop runs queued jobs for one time slice at a time, then looks at its descriptors: a long
/// burst of work does not keep a ready descriptor waiting for all of it, and every job of the
/// burst still runs, on the loop.
struct JobTimeSliceTests {
    /// Jobs of the burst, each busy for a millisecond: far longer than a slice all together.
    private static let burst = 40

    /// What the jobs of the burst report.
    private final class Counts: Sendable {
        let finished = Atomic<Int>(0)
        let offTheLoop = Atomic<Int>(0)
    }

    /// Keeps the thread busy for `duration`.
    private static func spin(for duration: Duration) {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: duration)
        while clock.now < end {}
    }

    @Test func aReadyDescriptorIsReadBeforeALongBurstEndsAndTheBurstStillRunsOnTheLoop() async throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let group = try EventLoopGroup(loopCount: 1, name: "test")
        let loop = group.loops[0]
        let counts = Counts()
        // Readable before the burst starts.
        var byte: UInt8 = 1
        #expect(write(writeEnd, &byte, 1) == 1)
        let finishedWhenRead = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            let accepted = loop.execute {
                let watching = loop.watch(readEnd, for: .readable) { _ in
                    var byte: UInt8 = 0
                    _ = read(readEnd, &byte, 1)
                    loop.unwatch(readEnd)
                    continuation.resume(returning: counts.finished.load(ordering: .relaxed))
                }
                guard watching else { return continuation.resume(returning: -1) }
                // All queued in one go, from the loop: without a slice they would all run before
                // the loop looked at the pipe.
                for _ in 0..<Self.burst {
                    Task(executorPreference: loop) {
                        if !loop.isCurrent { counts.offTheLoop.add(1, ordering: .relaxed) }
                        Self.spin(for: .milliseconds(1))
                        counts.finished.add(1, ordering: .relaxed)
                    }
                }
            }
            if !accepted { continuation.resume(returning: -1) }
        }
        #expect(finishedWhenRead >= 0)
        #expect(finishedWhenRead < Self.burst)
        // The loop stops with most of the burst still set aside: its last turn runs them there.
        await group.shutdown()
        #expect(counts.finished.load(ordering: .relaxed) == Self.burst)
        #expect(counts.offTheLoop.load(ordering: .relaxed) == 0)
    }
}
