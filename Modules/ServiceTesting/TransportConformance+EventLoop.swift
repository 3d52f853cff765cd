import EventLoops
import ServiceCore

extension TransportConformance {
    /// Runs `check` from the network thread of a one-thread HTTP server on loopback, as a request
    /// handler would send (see ``EventLoopHost``): for transports that work on the caller's
    /// ``ServiceCore/IOEventLoop``.
    /// - Throws: ``ConformanceFailure`` when the check fails, or when the call did not run on a
    ///   loop's thread.
    public func runOnEventLoop(_ check: Check) async throws {
        let suite = self
        try await EventLoopHost.run {
            guard IOEventLoops.current != nil else {
                throw ConformanceFailure(check: check, message: "the check did not run on an event loop's thread")
            }
            try await suite.run(check)
        }
    }
}
