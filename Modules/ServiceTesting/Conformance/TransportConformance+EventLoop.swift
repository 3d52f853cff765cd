import EventLoops
import ServiceCore

extension TransportConformance {
    /// Runs `check` from the loop of ``EventLoopHost/loops``, as a request handler would send:
    /// for transports built with that group, which work on the caller's loop.
    /// - Throws: ``ConformanceFailure`` when the check fails, or when the call did not run on the
    ///   host's loop.
    public func runOnEventLoop(_ check: Check) async throws {
        let suite = self
        try await EventLoopHost.run {
            guard EventLoopHost.loops.loopOfCaller != nil else {
                throw ConformanceFailure(check: check, message: "the check did not run on an event loop's thread")
            }
            try await suite.run(check)
        }
    }
}
