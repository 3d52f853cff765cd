import AppLifecycle
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(1)))
struct UnixSignalsTests {
    @Test func aSignalSentToTheProcessArrivesInTheSequence() async throws {
        // SIGUSR2 is ignored from here on, so sending it cannot end the test process.
        let signals = await UnixSignals([.user2])
        #expect(kill(getpid(), SIGUSR2) == 0)
        // Sent before the iteration starts: it waits for it.
        try await Task.sleep(for: .milliseconds(100))
        let first = await Self.next(of: signals, within: .seconds(10))
        #expect(first == .user2)
    }

    @Test func aLaterSequenceForTheSameSignalStillReceivesIt() async throws {
        // SIGUSR1 here only, so no other test's signal lands in these sequences.
        let earlier = await UnixSignals([.user1])
        #expect(kill(getpid(), SIGUSR1) == 0)
        #expect(await Self.next(of: earlier, within: .seconds(10)) == .user1)

        let later = await UnixSignals([.user1])
        #expect(kill(getpid(), SIGUSR1) == 0)
        #expect(await Self.next(of: later, within: .seconds(10)) == .user1)
    }

    @Test func signalsAreNamedAsKillNamesThem() {
        #expect(UnixSignal.terminate.description == "SIGTERM")
        #expect(UnixSignal.interrupt.description == "SIGINT")
        #expect(UnixSignal.hangup.description == "SIGHUP")
        #expect(UnixSignal(rawValue: SIGUSR2) == .user2)
    }

    /// The sequence's next signal, or `nil` when none arrives within `limit`.
    static func next(of signals: UnixSignals, within limit: Duration) async -> UnixSignal? {
        await withTaskGroup(of: UnixSignal?.self) { group in
            group.addTask {
                var iterator = signals.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
