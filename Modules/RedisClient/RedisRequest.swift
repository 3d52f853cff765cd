import EventLoops

/// One call: a command or a pipeline, written as one run of bytes and answered by `replyCount`
/// replies in order.
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
    /// Whether it holds a blocking command, which gets a connection of its own (other calls
    /// would wait behind it for as long as it blocks).
    let exclusive: Bool
    var continuation: UnsafeContinuation<[RedisValue], any Error>?
    /// Its timeout timer, once submitted.
    var timer: IOTimerID?
    /// The connection carrying it, once placed.
    weak var connection: RedisConnection?
    /// The pool it was submitted to.
    weak var pool: RedisLoopPool?
    /// Set when its task was cancelled before it reached its pool (which then refuses it).
    var cancelledBeforeSubmission = false
    /// How many of its replies have come.
    var received = 0
    /// The replies received so far (none kept once its caller has gone).
    var replies: [RedisValue] = []
    /// Where its bytes end in its connection's output over the connection's life.
    var endOffset = 0
    /// Its connection's reply count when it was placed (no reply since means no progress).
    var repliesMark = 0

    init(bytes: [UInt8], replyCount: Int, summary: String, timeout: Duration, exclusive: Bool) {
        self.bytes = bytes
        self.replyCount = replyCount
        self.summary = summary
        self.timeout = timeout
        self.exclusive = exclusive
    }
}
