import AppLifecycle
import Synchronization

/// What the test services did, in order, across all of them.
final class EventLog: Sendable {
    private let events = Mutex<[String]>([])
    private let deadlines = Mutex<[String: ContinuousClock.Instant]>([:])

    var all: [String] { events.withLock { $0 } }

    func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    func recordDeadline(_ deadline: ContinuousClock.Instant, of service: String) {
        deadlines.withLock { $0[service] = deadline }
    }

    func deadline(of service: String) -> ContinuousClock.Instant? {
        deadlines.withLock { $0[service] }
    }
}

/// Why a ``RecordingService`` failed to start.
struct StartFailure: Error, Equatable {
    let service: String
}

/// A service that records each call in an ``EventLog``; it can fail to start, or overrun its
/// drain until it is stopped (ignoring cancellation and the deadline).
final class RecordingService: LifecycleService {
    let name: String
    private let log: EventLog
    private let failsToStart: Bool
    private let overrunsDrain: Bool
    private let stopped = Mutex(false)

    init(_ name: String, log: EventLog, failsToStart: Bool = false, overrunsDrain: Bool = false) {
        self.name = name
        self.log = log
        self.failsToStart = failsToStart
        self.overrunsDrain = overrunsDrain
    }

    func start() async throws {
        log.record("start \(name)")
        if failsToStart { throw StartFailure(service: name) }
    }

    func drain(until deadline: ContinuousClock.Instant) async {
        log.record("drain \(name)")
        log.recordDeadline(deadline, of: name)
        guard overrunsDrain else { return }
        // Bounded: at most 60 s, or until stop() ends it.
        let clock = ContinuousClock()
        let giveUp = clock.now + .seconds(60)
        while !stopped.withLock({ $0 }) && clock.now < giveUp {
            try? await Task.sleep(for: .milliseconds(10))
        }
        log.record("drain \(name) ended")
    }

    func stop() async {
        log.record("stop \(name)")
        stopped.withLock { $0 = true }
    }
}
