public import AppLogging
import Synchronization

/// Starts the long-running parts of a process in order and shuts them down in reverse order.
///
/// Hand it each part as it can be started: a part may need what an earlier one provides once
/// running (a port, a key), so ``start(_:)`` may be called several times, each call adding its
/// parts after those already running.
///
/// ```swift
/// let services = ServiceGroup(logger: logger)
/// try await services.start([adminServer, transports, appServer])
/// // ... until a signal arrives
/// await services.shutdown(gracePeriod: .seconds(10))
/// ```
///
/// - A part that fails to start stops every part started before it, in reverse order, and
///   ``start(_:)`` throws a ``ServiceGroupError`` that names the part.
/// - ``shutdown(gracePeriod:)`` drains and stops the parts from the last started to the first,
///   each one drained before it stops and before the next is drained. The grace period is one
///   deadline for the whole group: a part still draining at the deadline is cut off and stopped.
public final class ServiceGroup: Sendable {
    private let logger: Logger
    /// The parts running now, in the order they started.
    private let running = Mutex<[any LifecycleService]>([])

    /// Creates an empty group.
    /// - Parameter logger: Where each part's start, drain and stop is logged.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// The names of the parts running now, in the order they started.
    public var runningServices: [String] {
        running.withLock { $0.map(\.name) }
    }

    /// Starts `services` one after another, after the parts already running.
    ///
    /// - Parameter services: The parts, in the order they start.
    /// - Throws: ``ServiceGroupError`` with ``ServiceGroupError/Code/startFailed`` naming the first
    ///   part that failed; every part started before it (in this call or an earlier one) has then
    ///   been stopped, in reverse order.
    public func start(_ services: [any LifecycleService]) async throws(ServiceGroupError) {
        for service in services {
            do {
                try await service.start()
            } catch {
                logger.error(
                    "failed to start; stopping the parts already started",
                    metadata: ["service": .string(service.name), "error": .string(String(describing: error))]
                )
                await stop()
                throw ServiceGroupError(code: .startFailed, service: service.name, underlying: error)
            }
            running.withLock { $0.append(service) }
            logger.debug("started", metadata: ["service": .string(service.name)])
        }
    }

    /// Starts one part after the parts already running.
    /// - Parameter service: The part.
    /// - Throws: ``ServiceGroupError`` as the form for several parts does.
    public func start(_ service: any LifecycleService) async throws(ServiceGroupError) {
        try await start([service])
    }

    /// Drains and stops every running part, the last started first, within one deadline.
    ///
    /// Each part's ``LifecycleService/drain(until:)`` gets the same deadline, `gracePeriod` from
    /// now; a drain still running then is cancelled, and every later part is stopped at once.
    /// The group is empty afterwards.
    /// - Parameter gracePeriod: How long all the parts together may take to drain.
    public func shutdown(gracePeriod: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: gracePeriod)
        for service in takeRunning().reversed() {
            if clock.now < deadline {
                if await !Self.drain(service, until: deadline) {
                    logger.warning(
                        "drain cut off at the deadline", metadata: ["service": .string(service.name)])
                }
            }
            await service.stop()
            logger.debug("stopped", metadata: ["service": .string(service.name)])
        }
    }

    /// Stops every running part at once, without draining, the last started first.
    ///
    /// For a start that failed outside the group (building a part threw after others had
    /// started); a part's own failed start has already stopped the others. The group is empty
    /// afterwards.
    public func stop() async {
        for service in takeRunning().reversed() {
            await service.stop()
            logger.debug("stopped", metadata: ["service": .string(service.name)])
        }
    }

    private func takeRunning() -> [any LifecycleService] {
        running.withLock { services in
            defer { services = [] }
            return services
        }
    }

    /// Runs the part's drain until it returns or the deadline passes, whichever comes first, and
    /// says whether the drain finished in time; an overrunning drain is cancelled, not awaited.
    private static func drain(_ service: any LifecycleService, until deadline: ContinuousClock.Instant) async -> Bool {
        let outcome = FirstOutcome()
        let draining = Task {
            await service.drain(until: deadline)
            outcome.resolve(true)
        }
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            outcome.resolve(false)
        }
        let finished = await outcome.value()
        timer.cancel()
        if !finished { draining.cancel() }
        return finished
    }
}

/// The first of several racing results; later ones are dropped.
private final class FirstOutcome: Sendable {
    private struct State {
        var result: Bool?
        var waiter: CheckedContinuation<Bool, Never>?
    }

    private let state = Mutex(State())

    func resolve(_ result: Bool) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    /// Waits for the first result. Called once.
    func value() async -> Bool {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
