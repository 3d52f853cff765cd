import Foundation
import ServiceCore
import ServiceTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct VirtualClockTests {
    @Test func automaticSleepsAdvanceTimeAtOnce() async throws {
        let clock = VirtualClock()
        try await clock.sleep(for: .seconds(3))
        try await clock.sleep(for: .milliseconds(250))
        #expect(clock.now == .milliseconds(3250))
        #expect(clock.sleeps == [.seconds(3), .milliseconds(250)])
        #expect(clock.wallTime.timeIntervalSince1970 == 1_700_000_003.25)
    }

    @Test func manualSleepsWakeWhenTheClockPassesTheirEnd() async throws {
        let clock = VirtualClock(mode: .manual)
        let sleeper = Task { try await clock.sleep(for: .seconds(2)) }
        for _ in 0..<5000 where clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelledSleepThrows() async throws {
        let clock = VirtualClock(mode: .manual)
        let sleeper = Task { try await clock.sleep(for: .seconds(2)) }
        for _ in 0..<5000 where clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }
}
