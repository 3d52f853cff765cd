public import Foundation
public import ServiceCore
import Synchronization

/// A ``ServiceCore/ResilienceClock`` whose time moves only when a test says so, for testing
/// backoff, windows, cool-downs and deadlines without sleeping.
///
/// ```swift
/// let clock = VirtualClock()                        // sleeps advance time at once
/// let retry = RetryMiddleware(clock: clock, random: .constant(0.5))
/// // ... send a call that is retried twice ...
/// #expect(clock.sleeps == [.milliseconds(50), .milliseconds(100)])
/// ```
///
/// In the default ``Mode/automatic`` mode a sleep moves the clock forward by its duration and
/// returns at once: right for one task, or for tasks whose interleaving does not matter. In
/// ``Mode/manual`` mode a sleep waits until ``advance(by:)`` moves the clock past its end, so a
/// test controls exactly which sleepers wake.
public final class VirtualClock: ResilienceClock {
    /// How sleeps pass.
    public enum Mode: Sendable {
        /// A sleep advances the clock by its duration and returns.
        case automatic
        /// A sleep waits for ``VirtualClock/advance(by:)``.
        case manual
    }

    private struct Sleeper {
        var id: Int
        var end: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration
        var sleepers: [Sleeper] = []
        var cancelled: Set<Int> = []
        var nextID = 0
        var sleeps: [Duration] = []
    }

    /// How sleeps pass.
    public let mode: Mode
    private let origin: Date
    private let state: Mutex<State>

    /// Creates a clock.
    /// - Parameters:
    ///   - mode: How sleeps pass; ``Mode/automatic`` by default.
    ///   - start: The first reading; zero by default.
    ///   - wallTime: The wall-clock time at reading zero; 2023-11-14T22:13:20Z by default.
    public init(
        mode: Mode = .automatic, start: Duration = .zero, wallTime: Date = Date(timeIntervalSince1970: 1_700_000_000)
    ) {
        self.mode = mode
        self.origin = wallTime
        self.state = Mutex(State(now: start))
    }

    /// The current reading.
    public var now: Duration { state.withLock { $0.now } }

    /// The wall-clock time at ``now``.
    public var wallTime: Date {
        let (seconds, attoseconds) = now.components
        return origin.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// Every sleep asked for, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// The tasks sleeping now (``Mode/manual`` mode).
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Sleeps as the ``mode`` says; throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        let positive = max(duration, .zero)
        guard mode == .manual else {
            state.withLock {
                $0.sleeps.append(positive)
                $0.now += positive
            }
            await Task.yield()
            try Task.checkCancellation()
            return
        }
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.sleeps.append(positive)
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    let end = state.now + positive
                    if end <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, end: end, continuation: continuation))
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes the sleepers whose sleep has ended.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now += max(duration, .zero)
            let now = state.now
            let woken = state.sleepers.filter { $0.end <= now }
            state.sleepers.removeAll { $0.end <= now }
            return woken
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }
}
