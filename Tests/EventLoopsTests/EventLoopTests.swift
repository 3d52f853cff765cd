import Foundation
import Synchronization
import Testing

@testable import EventLoops

/// The loops of an `EventLoopGroup`: where the caller runs, descriptors, timers, hand-overs
/// and the last turn.
struct EventLoopTests {
    /// Order of events seen on one loop; touched on that loop's thread only.
    private final class Record: @unchecked Sendable {
        // `@unchecked Sendable`: written and read on one event loop's thread only (by the tests below).
        var values: [Int] = []
    }

    /// Runs `body` with a new group, stopped afterwards.
    private func withGroup<T: Sendable>(
        _ count: Int = 1, _ body: @Sendable (EventLoopGroup) async throws -> T
    ) async throws -> T {
        let group = try EventLoopGroup(loopCount: count, name: "test")
        do {
            let result = try await body(group)
            await group.shutdown()
            return result
        } catch {
            await group.shutdown()
            throw error
        }
    }

    /// Runs `body` with the read and write ends of a new pipe, closed afterwards.
    private func withPipe<T>(_ body: (_ readEnd: Int32, _ writeEnd: Int32) async throws -> T) async throws -> T {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        return try await body(fds[0], fds[1])
    }

    @Test func aTaskThatPrefersALoopRunsOnItAndOnlyThatLoopIsCurrent() async throws {
        try await withGroup(2) { group in
            let (first, second) = (group.loops[0], group.loops[1])
            let seen = try await withTaskExecutorPreference(second) { () -> (Bool, Bool, Bool) in
                try await Task.sleep(for: .milliseconds(1))
                return (second.isCurrent, first.isCurrent, group.loopOfCaller === second)
            }
            #expect(seen == (true, false, true))
            #expect(!first.isCurrent && !second.isCurrent)
            #expect(group.loopOfCaller == nil)
        }
    }

    @Test func theGroupHasTheLoopsAskedForOnThreadsOfTheirOwnAndHandsThemOutInTurn() async throws {
        try await withGroup(3) { group in
            #expect(group.loops.count == 3)
            #expect(Set(group.loops.map(ObjectIdentifier.init)).count == 3)
            let picked = (0..<6).map { _ in ObjectIdentifier(group.next()) }
            #expect(Set(picked).count == 3)
            #expect(Array(picked[0..<3]) == Array(picked[3..<6]))
            var names: [String] = []
            for loop in group.loops {
                names.append(
                    await withCheckedContinuation { continuation in
                        loop.execute { continuation.resume(returning: Thread.current.name ?? "") }
                    })
            }
            #expect(names == ["test-0", "test-1", "test-2"])
        }
    }

    @Test func theDefaultSizeIsTheCPUsTheProcessMayRunOn() throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let allowed = CPUAffinity.allowedCPUCount() ?? cores
        #expect(EventLoopGroup.defaultLoopCount == min(cores, allowed))
        #expect(throws: EventLoopError.self) { try EventLoopGroup(loopCount: 0) }
    }

    @Test func timersFireInDeadlineOrderAndCancelledOnesNever() async throws {
        let order = try await withGroup { group in
            let loop = group.loops[0]
            return await withCheckedContinuation { continuation in
                loop.execute {
                    let record = Record()
                    let now = ContinuousClock.now
                    _ = loop.schedule(at: now + .milliseconds(30)) {
                        record.values.append(30)
                        continuation.resume(returning: record.values)
                    }
                    _ = loop.schedule(at: now + .milliseconds(10)) { record.values.append(10) }
                    let cancelled = loop.schedule(at: now + .milliseconds(15)) { record.values.append(15) }
                    _ = loop.schedule(at: now + .milliseconds(20)) { record.values.append(20) }
                    _ = loop.schedule(at: now - .milliseconds(5)) { record.values.append(0) }
                    loop.cancelTimer(cancelled)
                }
            }
        }
        #expect(order == [0, 10, 20, 30])
    }

    @Test func aWatchedDescriptorIsReportedReadable() async throws {
        let received = try await withPipe { readEnd, writeEnd in
            try await withGroup { group in
                let loop = group.loops[0]
                return await withCheckedContinuation { continuation in
                    loop.execute {
                        let watching = loop.watch(readEnd, for: .readable) { readiness in
                            guard readiness.contains(.readable) else { return }
                            var byte: UInt8 = 0
                            _ = read(readEnd, &byte, 1)
                            loop.unwatch(readEnd)
                            continuation.resume(returning: byte)
                        }
                        guard watching else { return continuation.resume(returning: UInt8(0)) }
                        // Written from another thread, after the watch is in place.
                        Thread.detachNewThread {
                            var byte: UInt8 = 42
                            _ = write(writeEnd, &byte, 1)
                        }
                    }
                }
            }
        }
        #expect(received == 42)
    }

    @Test func handedOverWorkRunsOnTheLoopAndTheLastTurnEndsWhatIsLeft() async throws {
        let group = try EventLoopGroup(loopCount: 1, name: "test")
        let loop = group.loops[0]
        let stopped = Atomic<Bool>(false)
        let ranOnLoop = await withCheckedContinuation { continuation in
            let accepted = loop.execute {
                loop.whenStopping { stopped.store(true, ordering: .relaxed) }
                continuation.resume(returning: loop.isCurrent)
            }
            if !accepted { continuation.resume(returning: false) }
        }
        #expect(ranOnLoop)
        let stoppedBefore = stopped.load(ordering: .relaxed)
        #expect(!stoppedBefore)
        await group.shutdown()
        let stoppedAfter = stopped.load(ordering: .relaxed)
        #expect(stoppedAfter)
        #expect(!loop.execute {})
    }

    @Test func endOfTurnWorkWaitsForTheJobsOfTheTurnEvenWhenTheyRunEarly() async throws {
        let order = try await withPipe { readEnd, writeEnd in
            try await withGroup { group in
                let loop = group.loops[0]
                let record = Record()
                return await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
                    loop.execute {
                        let watching = loop.watch(readEnd, for: .readable) { _ in
                            var byte: UInt8 = 0
                            _ = read(readEnd, &byte, 1)
                            loop.unwatch(readEnd)
                            loop.atEndOfTurn {
                                record.values.append(3)
                                continuation.resume(returning: record.values)
                            }
                            loop.execute { record.values.append(1) }
                            // As the server does after starting a handler's task: the queue runs now.
                            loop.runQueuedJobs()
                            record.values.append(2)
                        }
                        guard watching else { return continuation.resume(returning: []) }
                        Thread.detachNewThread {
                            var byte: UInt8 = 1
                            _ = write(writeEnd, &byte, 1)
                        }
                    }
                }
            }
        }
        #expect(order == [1, 2, 3])
    }

    @Test func theLastTurnRunsItsEndOfTurnWorkAndThenRefusesMore() async throws {
        let group = try EventLoopGroup(loopCount: 1, name: "test")
        let loop = group.loops[0]
        let seen = Mutex<[String]>([])
        loop.execute {
            loop.whenStopping {
                let accepted = loop.atEndOfTurn {
                    let late = loop.atEndOfTurn {}
                    seen.withLock { $0.append(late ? "ran, late accepted" : "ran, late refused") }
                }
                seen.withLock { $0.append(accepted ? "accepted" : "refused") }
            }
        }
        await group.shutdown()
        #expect(seen.withLock { $0 } == ["accepted", "ran, late refused"])
    }
    @Test func aTimerNeverFiresBeforeItsDeadline() async throws {
        // The wait is exact to the nanosecond, so no turn wakes a timer early (and none rounds
        // it up to the next millisecond either; how late one fires is a benchmark's business).
        let early = try await withGroup { group in
            let loop = group.loops[0]
            return await withCheckedContinuation { continuation in
                loop.execute {
                    let record = Record()
                    let start = ContinuousClock.now
                    for index in 1...20 {
                        let deadline = start + .microseconds(index * 1_700)
                        _ = loop.schedule(at: deadline) {
                            record.values.append(ContinuousClock.now < deadline ? 1 : 0)
                            if index == 20 { continuation.resume(returning: record.values) }
                        }
                    }
                }
            }
        }
        #expect(early == Array(repeating: 0, count: 20))
    }

    @Test(
        arguments: [
            (nil, 1_000_000),
            (-5_000, 0),
            (0, 0),
            (2_500, 2_500),
            (999_999, 999_999),
            (1_250_000, 1_000_000),
        ] as [(Int?, Int)])
    func aTurnWaitsUntilTheNextDeadlineForOneSecondAtMost(deadline: Int?, microseconds: Int) {
        let now = ContinuousClock.now
        let timeout = EventLoop.timeout(from: now, to: deadline.map { now + .microseconds($0) })
        #expect(timeout == .microseconds(microseconds))
    }

    @Test func aSleepOnTheCallersLoopEndsAfterItsDurationOnThatLoop() async throws {
        try await withGroup(2) { group in
            let loop = group.loops[1]
            let (slept, onLoop) = try await withTaskExecutorPreference(loop) { () -> (Duration, Bool) in
                let start = ContinuousClock.now
                try await group.sleep(for: .milliseconds(30))
                return (start.duration(to: .now), loop.isCurrent)
            }
            #expect(slept >= .milliseconds(30))
            #expect(slept < .seconds(5))
            #expect(onLoop)
            // Off the loops, a sleep is timed by one of them all the same.
            let start = ContinuousClock.now
            try await group.sleep(for: .milliseconds(10))
            #expect(start.duration(to: .now) >= .milliseconds(10))
        }
    }

    @Test func aCancelledSleepThrowsAtOnceAndItsTimerIsForgotten() async throws {
        try await withGroup { group in
            let sleeper = Task {
                let start = ContinuousClock.now
                await #expect(throws: CancellationError.self) { try await group.sleep(for: .seconds(60)) }
                return start.duration(to: .now)
            }
            try await Task.sleep(for: .milliseconds(20))
            sleeper.cancel()
            #expect(await sleeper.value < .seconds(30))
            // A task cancelled before it sleeps does not sleep at all.
            let cancelledFirst = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                await #expect(throws: CancellationError.self) { try await group.sleep(for: .seconds(60)) }
            }
            await cancelledFirst.value
            // The forgotten timers leave nothing behind: the loop still runs a short one.
            try await group.sleep(for: .milliseconds(1))
        }
    }

    @Test func aSleepOnAStoppedLoopThrows() async throws {
        let group = try EventLoopGroup(loopCount: 1, name: "test")
        await group.shutdown()
        await #expect(throws: CancellationError.self) { try await group.sleep(for: .seconds(60)) }
    }
}
