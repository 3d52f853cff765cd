import AppLifecycle

/// The daemon's ``Readiness`` as the last part of its ``ServiceGroup``: ready once every other
/// part has started, and, being the first to drain, `draining` before any part stops taking
/// work, so a load balancer stops sending first: the next part (the app server) stops accepting
/// only `delay` later.
struct ReadinessGate: LifecycleService {
    let name = "readiness"
    let readiness: Readiness
    let delay: Duration

    func start() async throws {
        readiness.set(.ready)
    }

    func drain(until deadline: ContinuousClock.Instant) async {
        readiness.set(.draining)
        let wait = min(delay, ContinuousClock.now.duration(to: deadline))
        if wait > .zero { try? await Task.sleep(for: wait) }
    }

    func stop() async {}
}
