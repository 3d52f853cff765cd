import EventLoops

/// One call in flight: a command or a pipeline, written as one batch of bytes and answered by
/// `replyCount` replies in order.
///
/// Made by the caller, then touched only on its pool's loop thread (the caller hands it over
/// with `execute`, or is on that thread already); the continuation is resumed exactly once, by
/// ``RedisLoopPool/finish(_:with:)``, which clears it. That is why `@unchecked Sendable` is safe.
final class RedisRequest: @unchecked Sendable {
    /// The encoded commands.
    let bytes: [UInt8]
    /// How many replies answer them.
    let replyCount: Int
    /// The command names, for messages.
    let summary: String
    /// How long it may take.
    let timeout: Duration
    /// When it fails with `timedOut`.
    var deadline: ContinuousClock.Instant = .now
    var continuation: UnsafeContinuation<[RedisValue], any Error>?
    /// Its timeout timer, once submitted.
    var timer: IOTimerID?
    /// The connection carrying it, once written.
    weak var connection: RedisConnection?
    /// The pool it was submitted to.
    weak var pool: RedisLoopPool?
    /// Set when its task was cancelled before it reached its pool (which then refuses it).
    var cancelledBeforeSubmission = false

    init(bytes: [UInt8], replyCount: Int, summary: String, timeout: Duration) {
        self.bytes = bytes
        self.replyCount = replyCount
        self.summary = summary
        self.timeout = timeout
    }
}
