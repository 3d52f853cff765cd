import AppLifecycle
import AppLogging
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ServiceGroupTests {
    let logger = Logger(label: "test", handler: InMemoryLogHandler())

    @Test func startsInOrderAndDrainsAndStopsInReverse() async throws {
        let log = EventLog()
        let group = ServiceGroup(logger: logger)
        try await group.start([RecordingService("a", log: log), RecordingService("b", log: log)])
        // A later call adds its parts after those already running.
        try await group.start(RecordingService("c", log: log))
        #expect(group.runningServices == ["a", "b", "c"])

        await group.shutdown(gracePeriod: .seconds(30))
        #expect(
            log.all == [
                "start a", "start b", "start c",
                "drain c", "stop c", "drain b", "stop b", "drain a", "stop a",
            ])
        #expect(group.runningServices.isEmpty)
    }

    @Test func aFailedStartStopsWhatStartedAndNamesThePart() async throws {
        let log = EventLog()
        let group = ServiceGroup(logger: logger)
        try await group.start(RecordingService("a", log: log))
        let error = await #expect(throws: ServiceGroupError.self) {
            try await group.start([
                RecordingService("b", log: log),
                RecordingService("c", log: log, failsToStart: true),
                RecordingService("d", log: log),
            ])
        }
        #expect(error?.code == .startFailed)
        #expect(error?.service == "c")
        #expect(error?.underlying as? StartFailure == StartFailure(service: "c"))
        #expect(error?.description.hasPrefix("c failed to start: ") == true)
        // The failed part is not stopped, the later one never starts, nothing is drained.
        #expect(log.all == ["start a", "start b", "start c", "stop b", "stop a"])
        #expect(group.runningServices.isEmpty)
    }

    @Test func stopStopsInReverseWithoutDraining() async throws {
        let log = EventLog()
        let group = ServiceGroup(logger: logger)
        try await group.start([RecordingService("a", log: log), RecordingService("b", log: log)])
        await group.stop()
        #expect(log.all == ["start a", "start b", "stop b", "stop a"])
        // Stopping twice does nothing more.
        await group.stop()
        #expect(log.all.count == 4)
    }

    @Test func theDrainHasOneDeadlineForAllParts() async throws {
        let log = EventLog()
        let group = ServiceGroup(logger: logger)
        try await group.start([
            RecordingService("first", log: log),
            RecordingService("overrunning", log: log, overrunsDrain: true),
            RecordingService("last", log: log),
        ])
        let clock = ContinuousClock()
        let began = clock.now
        // Generous, so that a loaded machine (where the test runner's threads may wait seconds for
        // a core) still reaches the overrunning part before the deadline.
        await group.shutdown(gracePeriod: .seconds(12))
        let took = clock.now - began

        // The overrunning part would drain for 60 s; it is cut off at the deadline and stopped.
        #expect(took >= .seconds(12))
        #expect(took < .seconds(30))
        // Both parts drained before the cut-off saw the same deadline; the part after it had no
        // time left, so it was stopped without a drain.
        let deadline = try #require(log.deadline(of: "last"))
        #expect(log.deadline(of: "overrunning") == deadline)
        #expect(deadline >= began + .seconds(12))
        #expect(deadline < began + .seconds(30))
        #expect(log.deadline(of: "first") == nil)
        #expect(
            log.all.filter { !$0.hasSuffix("ended") } == [
                "start first", "start overrunning", "start last",
                "drain last", "stop last", "drain overrunning", "stop overrunning", "stop first",
            ])
    }
}
