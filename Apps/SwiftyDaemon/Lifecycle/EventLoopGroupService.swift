import AppLifecycle
import EventLoops

/// The event loops the app server and the transports share, as one part of the daemon's
/// ``ServiceGroup``: running from their creation, stopped after the transports and the server
/// that use them.
struct EventLoopGroupService: LifecycleService {
    let name = "event loops"
    let eventLoops: EventLoopGroup

    func start() async throws {}

    func stop() async {
        await eventLoops.shutdown()
    }
}
