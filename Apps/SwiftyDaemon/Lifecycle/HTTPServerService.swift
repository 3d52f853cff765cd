import AppLifecycle
import HTTPServer

/// An HTTP server as a part of the daemon's ``ServiceGroup``: started by binding its port,
/// drained by refusing new connections and letting in-flight requests finish.
struct HTTPServerService: LifecycleService {
    let name: String
    let server: HTTPServer

    func start() async throws {
        try server.start()
    }

    /// Requests still unanswered at the deadline get 503 (``HTTPServer/shutdown(gracePeriod:)``).
    func drain(until deadline: ContinuousClock.Instant) async {
        await server.shutdown(gracePeriod: max(.zero, deadline - .now))
    }

    /// After a drain cut off at the deadline this returns at once: the drain's own shutdown ends
    /// by itself, its grace period being the time left until that deadline.
    func stop() async {
        await server.shutdown(gracePeriod: .zero)
    }
}
