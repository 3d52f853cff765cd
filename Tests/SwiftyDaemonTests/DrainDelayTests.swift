import Foundation
import SwiftyDaemon
import Testing

/// On SIGTERM `/readyz` turns 503 first; the app server keeps serving for the drain delay, so a
/// load balancer stops sending before the daemon stops accepting.
@Suite(.timeLimit(.minutes(1)))
struct DrainDelayTests {
    @Test func readinessTurnsFirstAndTheAppServerServesThroughTheDelay() async throws {
        var configuration = UpstreamFailureTests.sandboxConfiguration()
        configuration.drainDelaySeconds = 1
        let daemon = try await UpstreamFailureTests.start(configuration)
        let admin = AppClient(baseURL: "http://127.0.0.1:\(daemon.adminPort)")
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        #expect(try await admin.get("/readyz", token: nil).status == 200)
        let drain = Task { await daemon.drain() }
        var readiness = 200
        for _ in 0..<100 where readiness == 200 {
            try await Task.sleep(for: .milliseconds(10))
            readiness = try await admin.get("/readyz", token: nil).status
        }
        #expect(readiness == 503)
        // Still within the delay: the app server has not stopped accepting.
        #expect(try await app.get("/v1/home").status == 200)
        await drain.value
    }

    @Test func theDelayIsAConfigurationField() throws {
        let configuration = try DaemonConfiguration.load(
            arguments: DaemonArguments(), environment: ["SWIFTY_DRAIN_DELAY_SECONDS": "0.5"])
        #expect(configuration.drainDelaySeconds == 0.5)
        #expect(DaemonConfiguration().drainDelaySeconds == 3)
    }
}
