/// The one deadline of an app request, shared by every module call it makes and by all their
/// attempts.
///
/// Bound as a task-local (request-scoped context), so every call made from the request's task
/// and its child tasks sees it without passing it around:
///
/// ```swift
/// try await RequestDeadline.run(within: .seconds(5), clock: clock) {
///     async let user = users.send(.profile(id: id), as: User.self)
///     async let feed = feeds.send(.timeline(id: id), as: Feed.self)
///     return try await Home(user: user, feed: feed)
/// }
/// ```
///
/// ``DeadlineMiddleware`` and ``RetryMiddleware`` read it: an attempt's timeout is the smaller of
/// its case's timeout and the time left, and no attempt starts when too little is left.
/// Cancelling the request's task cancels every call (structured concurrency does that).
public struct RequestDeadline: Sendable, Equatable {
    /// When the request must be answered, as a reading of the ``ResilienceClock`` it was made with.
    public var expires: Duration

    /// Creates a deadline at a reading of the clock.
    public init(expires: Duration) {
        self.expires = expires
    }

    /// The deadline of the current app request, or `nil` outside one.
    @TaskLocal public static var current: RequestDeadline?

    /// The time left before the deadline (negative once passed).
    public func remaining(on clock: any ResilienceClock) -> Duration {
        expires - clock.now
    }

    /// Runs `operation` with a deadline `budget` from now; an enclosing deadline that is sooner
    /// stays in force.
    public static func run<T>(
        within budget: Duration,
        clock: any ResilienceClock,
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> T
    ) async rethrows -> T {
        var deadline = RequestDeadline(expires: clock.now + budget)
        if let current, current.expires < deadline.expires {
            deadline = current
        }
        return try await $current.withValue(deadline, operation: operation, isolation: isolation)
    }

    /// The timeout for an attempt that may take `timeout`: the smaller of it and the time left,
    /// or `nil` when less than `minimum` is left (the attempt must not start).
    public static func attemptTimeout(
        _ timeout: Duration,
        minimum: Duration,
        clock: any ResilienceClock
    ) -> Duration? {
        guard let current else { return timeout }
        let left = current.remaining(on: clock)
        guard left >= minimum else { return nil }
        return min(timeout, left)
    }
}
