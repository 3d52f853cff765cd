import Foundation
import HTTPTypes
import SwiftyDaemon
import Testing

/// The app server's own refusals reach `/metrics` by reason, and metric labels stay in closed
/// sets whatever the clients send.
@Suite(.timeLimit(.minutes(1)))
struct RefusalMetricsTests {
    @Test func refusalsAreCountedByReasonAndMethodsOutsideTheStandardSetShareOneLabel() async throws {
        let daemon = try await UpstreamFailureTests.start()
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        let long = try await app.get("/v1/" + String(repeating: "a", count: 9000))
        #expect(long.status == 414)
        let unknown = try await app.send(HTTPMethod(rawValue: "FROB"), "/v1/home")
        #expect(unknown.status == 501)
        let purge = try await app.send(HTTPMethod(rawValue: "PURGE"), "/v1/home")
        #expect(purge.status == 405)
        #expect(daemon.metrics.refusals.value(["targetTooLong"]) == 1)
        #expect(daemon.metrics.refusals.value(["unknownMethod"]) == 1)
        let text = daemon.metrics.render()
        #expect(text.contains(#"method="other""#), "\(text)")
        #expect(!text.contains("PURGE") && !text.contains("FROB"))
        await daemon.drain()
    }
}
