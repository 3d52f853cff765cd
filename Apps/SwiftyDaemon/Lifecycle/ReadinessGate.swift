import AppLifecycle

/// The daemon's ``Readiness`` as the last part of its ``ServiceGroup``: ready once every other
/// part has started, and, being the first to drain, `draining` before any part stops taking
/// work, so a load balancer stops sending first.
struct ReadinessGate: LifecycleService {
    let name = "readiness"
    let readiness: Readiness

    func start() async throws {
        readiness.set(.ready)
    }

    func drain(until deadline: ContinuousClock.Instant) async {
        readiness.set(.draining)
    }

    func stop() async {}
}
