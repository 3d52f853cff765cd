import EventLoops

/// One call: a command or a pipeline, written as one run of bytes and answered by `replyCount`
/// replies in order.
///
/// Made by the caller, then touched only on its pool's loop thread (the caller hands it over
/// with `execute`, or is on that thread already); the continuation is resumed exactly once, by
/// ``RedisLoopPool/finish(_:with:)``, which clears it. That is why `@unchecked Sendable` is safe.
final class RedisRequest: @unchecked Sendable {
    /// The commands, each a name and its arguments (none empty).
    let commands: [[RedisArgument]]
    /// How many replies answer them.
    var replyCount: Int { commands.count }
    /// The command names, for messages; made only when one is needed.
    var summary: String {
        commands.count == 1
            ? RedisCommandEncoder.name(of: commands[0])
            : "a pipeline of \(commands.count) commands (\(RedisCommandEncoder.name(of: commands[0])), ...)"
    }
    /// How long it may take.
    let timeout: Duration
    /// Whether it holds a blocking command, which gets a connection of its own (other calls
    /// would wait behind it for as long as it blocks).
    let exclusive: Bool
    var continuation: UnsafeContinuation<[RedisValue], any Error>?
    /// When it fails with `timedOut`, once submitted.
    var deadline: ContinuousClock.Instant = .now
    /// Whether it is in its pool's ``RedisDeadlines``, and its neighbours there: the list holds
    /// the later one strongly, so the earlier one (`unowned(unsafe)`, no reference count) is
    /// always alive while linked; both are cleared when it leaves the list.
    var listed = false
    var later: RedisRequest?
    unowned(unsafe) var earlier: RedisRequest?
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

    init(commands: [[RedisArgument]], timeout: Duration, exclusive: Bool) {
        self.commands = commands
        self.timeout = timeout
        self.exclusive = exclusive
    }
}
