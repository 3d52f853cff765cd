/// Work that an ``EventLoop`` runs on every turn beside its own: a library that keeps its own
/// descriptor set and must be driven from the loop's thread (libmicrohttpd in external-polling
/// mode).
///
/// A hook is added and removed on the loop's thread (``EventLoop/addHook(_:)``); its methods are
/// called there. Prefer ``IOEventLoop/watch(_:for:handler:)`` and timers for sockets of your own.
public protocol EventLoopHook: AnyObject, Sendable {
    /// A descriptor the loop polls beside its epoll set: when it is readable, the loop turns.
    var descriptor: Int32 { get }

    /// Runs once per turn, after the loop's queued work and due timers (and once more on the
    /// loop's last turn).
    func run()

    /// The longest the loop may wait for its descriptors before the next turn, in milliseconds
    /// (at most 1000 is used).
    /// - Parameter now: The time the loop is about to wait.
    func longestWait(now: ContinuousClock.Instant) -> Int32
}
