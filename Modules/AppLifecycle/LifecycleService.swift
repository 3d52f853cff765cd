/// A long-running part of a process that a ``ServiceGroup`` starts, drains and stops in order
/// with the others: a server, a pool of upstream connections, an embedded upstream.
///
/// Implement it for a part that holds threads, sockets or other resources from its start to its
/// stop and that other parts rely on while they run. Values that need no shutdown (routers,
/// clients over a transport, configuration) are not services: build them in the composition
/// root and hand them to the services that use them.
///
/// A group calls ``start()`` once; if it returns, the group later calls ``drain(until:)`` and
/// then ``stop()`` when the process shuts down, or only ``stop()`` when a part started after
/// this one fails to start.
public protocol LifecycleService: Sendable {
    /// A short name for logs and errors, such as `app server`.
    var name: String { get }

    /// Starts the part and returns once it is running (its port bound, its threads started).
    ///
    /// A part that fails to start cleans up what it began itself: the group does not call
    /// ``stop()`` on it.
    /// - Throws: Why the part could not start; the group wraps it in a ``ServiceGroupError``.
    func start() async throws

    /// Stops taking new work and lets the work in flight finish, by `deadline` at the latest.
    ///
    /// The deadline is shared by every part of the group, so a part drained late gets what the
    /// parts before it left. A drain still running at the deadline is cancelled and ``stop()``
    /// is called while it may still run, so ``stop()`` must end it. The default does nothing.
    /// - Parameter deadline: When the whole group's drain time ends.
    func drain(until deadline: ContinuousClock.Instant) async

    /// Stops the part and releases what it holds, abandoning any work still in flight.
    ///
    /// Called after ``drain(until:)`` on a shutdown, or without it when the group rolls back a
    /// failed start; it must return promptly in both cases.
    func stop() async
}

extension LifecycleService {
    /// Does nothing: a part without work of its own to finish goes straight to ``stop()``.
    /// - Parameter deadline: When the whole group's drain time ends.
    public func drain(until deadline: ContinuousClock.Instant) async {}
}
