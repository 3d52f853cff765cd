import EventLoops

/// One socket to Redis in a ``RedisLoopPool``, with its reply reader and the call it carries.
///
/// Owned by its pool and touched only on the pool's loop thread.
final class RedisConnection {
    /// Where a connection is in its life.
    enum State {
        /// The non-blocking `connect` has not finished.
        case connecting
        /// `AUTH` and `SELECT` are in flight.
        case handshaking
        /// In the pool, waiting for a call (watched, so a close by Redis is noticed).
        case idle
        /// Carrying a call.
        case busy
        /// Closed; the descriptor is gone.
        case closed
    }

    let descriptor: Int32
    let reader: RedisReplyReader
    var state: State = .connecting
    /// What the loop watches the socket for, if anything.
    var watched: IOInterest?
    /// The bytes being written and how many are out.
    var output: [UInt8] = []
    var written = 0
    /// Replies still to come for what was written, and those received.
    var expected = 0
    var replies: [RedisValue] = []
    /// The call it carries while busy.
    var request: RedisRequest?
    /// The connect timer, while connecting or handshaking.
    var connectTimer: IOTimerID?

    init(descriptor: Int32, reader: RedisReplyReader) {
        self.descriptor = descriptor
        self.reader = reader
    }

    /// Starts writing `bytes`, answered by `replies` replies.
    func begin(_ bytes: [UInt8], replies count: Int) {
        output = bytes
        written = 0
        expected = count
        replies.removeAll(keepingCapacity: true)
        replies.reserveCapacity(count)
    }

    /// Whether bytes are still to be written.
    var hasOutput: Bool { written < output.count }
}
