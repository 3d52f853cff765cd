import Foundation
import HTTPFramingCorpus
import Testing

/// The framing corpus against a running `swiftyd` (sandbox mode, default limits): the same
/// answers and connection states as the bare server, where the handler's answer to the corpus's
/// paths, none of which is a route, is the router's 404.
@Suite(.timeLimit(.minutes(5)))
struct DaemonFramingCorpusTests {
    @Test func everyFramingGetsItsAnswer() async throws {
        let daemon = try await DaemonProcess.start()
        let target = FramingTarget(port: daemon.port, servedStatus: 404)
        for framing in FramingCorpus.all {
            let mismatches = await framing.mismatches(against: target)
            #expect(mismatches.isEmpty, "\(framing.name): \(mismatches)")
        }
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(20)) == 0)
    }
}
