/// A thread that waits on descriptors and timers and runs work, which a transport can share.
///
/// The HTTP server's network threads are such loops (``EventLoop``s of an ``EventLoopGroup``):
/// a request handler runs on the loop that owns its connection, and a transport built with the
/// same group finds that loop (``isCurrent``) and puts its upstream sockets on the same thread,
/// so an upstream call costs no hand-over between threads in either direction.
///
/// Every method except ``execute(_:)`` and ``isCurrent`` must be called on the loop's own
/// thread; the handlers it is given are called there too, one at a time.
public protocol IOEventLoop: AnyObject, Sendable {
    /// Whether the calling thread is the loop's thread.
    var isCurrent: Bool { get }

    /// Runs `work` on the loop's thread soon; from any thread.
    /// - Returns: `false` when the loop has stopped: `work` was not and will not be run.
    @discardableResult
    func execute(_ work: @escaping @Sendable () -> Void) -> Bool

    /// Watches `descriptor` for the given readiness, replacing an earlier watch of it.
    /// - Returns: `false` when the system refused (the descriptor is then not watched).
    func watch(_ descriptor: Int32, for interest: IOInterest, handler: @escaping (IOReadiness) -> Void) -> Bool

    /// Stops watching `descriptor`; call it before the descriptor is closed.
    func unwatch(_ descriptor: Int32)

    /// Calls `handler` once at `deadline` (or on the next turn if it has passed).
    /// - Returns: An id for ``cancelTimer(_:)``.
    func schedule(at deadline: ContinuousClock.Instant, _ handler: @escaping () -> Void) -> IOTimerID

    /// Forgets a timer that has not fired yet; nothing happens if it has.
    func cancelTimer(_ id: IOTimerID)

    /// Calls `handler` once, on the loop's thread, when the loop stops: whoever keeps work on the
    /// loop ends it there (fails what is in flight, closes descriptors).
    func whenStopping(_ handler: @escaping () -> Void)
}

/// What an ``IOEventLoop`` waits for on a descriptor.
public struct IOInterest: OptionSet, Sendable, Hashable {
    /// The set's bits.
    public let rawValue: UInt8

    /// Creates a set from its raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Data to read (or the peer closed).
    public static let readable = IOInterest(rawValue: 1)
    /// Room to write.
    public static let writable = IOInterest(rawValue: 2)
}

/// What an ``IOEventLoop`` found on a descriptor.
public struct IOReadiness: OptionSet, Sendable, Hashable {
    /// The set's bits.
    public let rawValue: UInt8

    /// Creates a set from its raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Data to read, or the peer closed.
    public static let readable = IOReadiness(rawValue: 1)
    /// Room to write.
    public static let writable = IOReadiness(rawValue: 2)
    /// An error or a hang-up on the descriptor.
    public static let error = IOReadiness(rawValue: 4)
}

/// Names one timer of an ``IOEventLoop``.
public struct IOTimerID: Hashable, Sendable {
    /// The loop's number for it.
    public let rawValue: UInt64

    /// Wraps a loop's number for a timer.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}
