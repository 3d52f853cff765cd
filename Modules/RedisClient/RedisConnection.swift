import EventLoops

/// One socket to Redis in a ``RedisLoopPool``, with its reply reader and the calls it carries.
///
/// Calls share it: each is appended to the output as it comes, without waiting for earlier
/// replies, and Redis answers in order, so replies go to `inFlight` strictly first to last.
/// Owned by its pool and touched only on the pool's loop thread.
final class RedisConnection {
    /// Where a connection is in its life.
    enum State {
        /// The non-blocking `connect` has not finished.
        case connecting
        /// `AUTH` and `SELECT` are in flight.
        case handshaking
        /// Open for calls (watched, so a close by Redis is noticed even with nothing in flight).
        case open
        /// Closed; the descriptor is gone.
        case closed
    }

    let descriptor: Int32
    let reader: RedisReplyReader
    var state: State = .connecting
    /// What the loop watches the socket for, if anything.
    var watched: IOInterest?
    /// The bytes to write and how many of them are out.
    var output: [UInt8] = []
    var written = 0
    /// Bytes written over the connection's life, to tell a reply that came too early.
    var totalWritten = 0
    /// Bytes appended over the connection's life.
    var totalQueued = 0
    /// Whether a flush of `output` is queued on the loop.
    var flushQueued = false
    /// The calls written or being written, oldest first; a call that timed out or was cancelled
    /// stays (its caller resumed) until its replies are read and dropped.
    var inFlight = FIFOQueue<RedisRequest>()
    /// Replies still to come for the calls in flight.
    var pendingReplies = 0
    /// Replies received over the connection's life.
    var repliesReceived = 0
    /// Whether it carries a blocking command, alone.
    var exclusive = false
    /// The handshake's replies still to come, and those received.
    var handshakeExpected = 0
    var handshakeReplies: [RedisValue] = []
    /// The connect timer, while connecting or handshaking.
    var connectTimer: IOTimerID?

    init(descriptor: Int32, reader: RedisReplyReader) {
        self.descriptor = descriptor
        self.reader = reader
    }

    /// Whether bytes are still to be written.
    var hasOutput: Bool { written < output.count }

    /// How many calls are in flight (those given up included).
    var callCount: Int { inFlight.count }

    /// The oldest call in flight.
    var oldest: RedisRequest? { inFlight.first }

    /// Appends a call's commands to the output and records it as in flight.
    func enqueue(_ request: RedisRequest) {
        if written > 0, written == output.count {
            output.removeAll(keepingCapacity: true)
            written = 0
        }
        let start = output.count
        for command in request.commands { RedisCommandEncoder.append(command, to: &output) }
        totalQueued += output.count - start
        request.endOffset = totalQueued
        request.repliesMark = repliesReceived
        inFlight.append(request)
        pendingReplies += request.replyCount
    }

    /// Removes the oldest call once its replies are in.
    func removeOldest() {
        guard let request = inFlight.popFirst() else { return }
        pendingReplies -= request.replyCount
    }

    /// Takes every call in flight (to fail them when the connection goes).
    func takeAll() -> ArraySlice<RedisRequest> {
        let calls = inFlight.removeAll()
        pendingReplies = 0
        return calls
    }
}
