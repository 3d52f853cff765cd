import Synchronization

/// The daemon's lifecycle state, as `/readyz` reports it.
public final class Readiness: Sendable {
    /// The states, in order.
    public enum State: Int, Sendable {
        /// Building and starting: not ready.
        case starting = 0
        /// Serving.
        case ready = 1
        /// Stopping: finishing in-flight requests, not taking new work.
        case draining = 2
    }

    private let value = Atomic<Int>(State.starting.rawValue)
    private let saturation = Mutex<(@Sendable () -> Bool)?>(nil)

    /// Creates the state, `starting`.
    public init() {}

    /// The current state.
    public var state: State { State(rawValue: value.load(ordering: .acquiring)) ?? .starting }

    /// Whether the app server is at its global connection limit (then `/readyz` answers 503).
    public var isSaturated: Bool { saturation.withLock { $0 }?() ?? false }

    /// Sets the check behind ``isSaturated``.
    public func watchSaturation(_ check: @escaping @Sendable () -> Bool) {
        saturation.withLock { $0 = check }
    }

    /// Moves to `state`.
    public func set(_ state: State) {
        value.store(state.rawValue, ordering: .releasing)
    }
}
