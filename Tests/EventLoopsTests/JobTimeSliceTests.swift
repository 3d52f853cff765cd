import Foundation
import Synchronization
import Testing

@testable import EventLoops

/// A loop runs queued jobs for one time slice at a time, then looks at its descriptors: a long
/// burst of work does not keep a ready descriptor waiting for all of it, and every job of the
/// burst still runs, on the loop. What a ready descriptor starts goes ahead of that backlog.
struct JobTimeSliceTests {
    /// Jobs of the burst, each busy for a millisecond: far longer than a slice all together.
    private static let burst = 40

    /// What the jobs of the burst report.
    private final class Counts: Sendable {
        let finished = Atomic<Int>(0)
        let offTheLoop = Atomic<Int>(0)
    }

    /// What ran, in order.
    private final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// Jobs of the backlog in the turn-order test, each queueing one more.
    private static let backlog = 12

    /// Keeps the thread busy for `duration`.
    private static func spin(for duration: Duration) {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: duration)
        while clock.now < end {}
    }

    /// Runs `body` with the read end of a pipe that is readable already (before any burst starts).
    private static func withReadablePipe(_ body: (Int32) async throws -> Void) async throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        try await body(fds[0])
    }

    /// Watches `readEnd` on `loop` (from its thread) for one readable event: reads the byte,
    /// stops watching, then runs `handler`. `false` when the loop refused the descriptor.
    private static func watchOnce(_ readEnd: Int32, on loop: EventLoop, _ handler: @escaping () -> Void) -> Bool {
        loop.watch(readEnd, for: .readable) { _ in
            var byte: UInt8 = 0
            _ = read(readEnd, &byte, 1)
            loop.unwatch(readEnd)
            handler()
        }
    }

    @Test func aReadyDescriptorIsReadBeforeALongBurstEndsAndTheBurstStillRunsOnTheLoop() async throws {
        try await Self.withReadablePipe { readEnd in try await burstAroundADescriptor(readEnd) }
    }

    private func burstAroundADescriptor(_ readEnd: Int32) async throws {
        let group = try EventLoopGroup(loopCount: 1, name: "test")
        let loop = group.loops[0]
        let counts = Counts()
        let finishedWhenRead = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            let accepted = loop.execute {
                let watching = Self.watchOnce(readEnd, on: loop) {
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

    /// What a ready descriptor starts goes ahead of the loop's backlog: the tasks its handler
    /// starts run in the handler's own run, and a timer it sets for now fires before the backlog
    /// goes on.
    @Test func aHandlersTasksAndItsTimerDueNowGoAheadOfTheBacklog() async throws {
        try await Self.withReadablePipe { readEnd in try await backlogAroundADescriptor(readEnd) }
    }

    private func backlogAroundADescriptor(_ readEnd: Int32) async throws {
        let group = try EventLoopGroup(loopCount: 1, name: "test")
        let loop = group.loops[0]
        let log = Log()
        let accepted = loop.execute {
            let watching = Self.watchOnce(readEnd, on: loop) {
                log.add("handler")
                _ = loop.schedule(at: .now) { log.add("timer") }
                Task(executorPreference: loop) { log.add("task") }
                loop.runQueuedJobs()
            }
            guard watching else { return }
            // Each job of the backlog queues another: when the first run's slice ends, some
            // of the backlog is set aside and some still queued.
            for index in 0..<Self.backlog {
                Task(executorPreference: loop) {
                    Self.spin(for: .milliseconds(1))
                    log.add("job \(index)")
                    Task(executorPreference: loop) {
                        Self.spin(for: .milliseconds(1))
                        log.add("follow-up \(index)")
                    }
                }
            }
        }
        #expect(accepted)
        let deadline = ContinuousClock.now + .seconds(10)
        while log.all.count < 3 + 2 * Self.backlog, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        await group.shutdown()
        let entries = log.all
        let handler = try #require(entries.firstIndex(of: "handler"))
        // Some of the backlog was left when the descriptor was read.
        #expect(handler < entries.count - 3)
        #expect(Array(entries[handler...].prefix(3)) == ["handler", "task", "timer"])
        #expect(entries.count == 3 + 2 * Self.backlog)
    }
}
