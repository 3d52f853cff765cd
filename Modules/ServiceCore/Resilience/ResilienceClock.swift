public import Foundation

/// The time source of the resilience middlewares: a monotonic reading for backoff, windows and
/// deadlines, the wall clock for `Retry-After` dates, and a sleep.
///
/// Handed to each middleware when it is made, never looked up, so tests drive time with
/// `ServiceTesting.VirtualClock` instead of sleeping. Production uses ``MonotonicClock``.
public protocol ResilienceClock: Sendable {
    /// The time elapsed since the clock's fixed origin; never goes backwards.
    var now: Duration { get }
    /// The wall-clock time, used only to read `Retry-After` HTTP-dates.
    var wallTime: Date { get }
    /// Waits for `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}
