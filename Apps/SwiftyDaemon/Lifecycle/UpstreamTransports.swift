import AppLifecycle
import CurlTransport
import HTTP1Transport
import URLSessionTransport

/// The transports the modules' upstream calls go through, as one part of the daemon's
/// ``ServiceGroup``: they run from their creation, and stop after the app server so that no
/// handler is left calling one.
struct UpstreamTransports: LifecycleService {
    let name = "upstream transports"
    let curl: OnDemandCurlTransport?
    let http1: HTTP1Transport?
    let urlSession: URLSessionTransport?

    func start() async throws {}

    /// The HTTP/1.1 transport goes first: it hands libcurl the calls it does not take.
    func drain(until deadline: ContinuousClock.Instant) async {
        await http1?.shutdown(gracePeriod: max(.zero, deadline - .now))
        await curl?.shutdown(gracePeriod: max(.zero, deadline - .now))
    }

    func stop() async {
        await http1?.shutdown()
        await curl?.shutdown()
        urlSession?.shutdown()
    }
}
