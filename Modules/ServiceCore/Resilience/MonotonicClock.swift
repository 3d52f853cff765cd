public import Foundation

/// The production ``ResilienceClock``: `ContinuousClock` for readings and sleeps, `Date()` for
/// the wall clock.
public struct MonotonicClock: ResilienceClock {
    /// The origin every reading is measured from, shared by all instances so their readings
    /// compare.
    private static let origin = ContinuousClock.now

    /// Creates the clock.
    public init() {}

    /// The time since the process first read the clock.
    public var now: Duration { ContinuousClock.now - Self.origin }

    /// `Date()`.
    public var wallTime: Date { Date() }

    /// `Task.sleep(for:)`.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
