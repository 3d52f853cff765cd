import AppLifecycle
import AppLogging
import Foundation
import HTTPServer
import ServiceTesting
import Testing

@testable import SwiftyDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// How `swiftyd` answers signals, and how the daemon stops what it started when a start fails.
@Suite(.timeLimit(.minutes(3)))
struct DaemonSignalTests {
    @Test func sighupIsLoggedAndDoesNotStopTheDaemon() async throws {
        let daemon = try await DaemonProcess.start()
        daemon.signal(SIGHUP)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        while !daemon.log.contains(#""signal":"SIGHUP""#) && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(daemon.log.contains(#""signal":"SIGHUP""#), "no log line for SIGHUP:\n\(daemon.log)")
        let admin = AppClient(baseURL: daemon.adminURL)
        #expect(try await admin.get("/readyz", token: nil).status == 200)
        #expect(try await AppClient(baseURL: daemon.baseURL).get("/v1/me").status == 200)
        #expect(!daemon.log.contains("draining"))

        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
        #expect(daemon.log.contains(#""signal":"SIGTERM""#))
    }

    @Test func sigintDrainsAndExitsZero() async throws {
        let daemon = try await DaemonProcess.start()
        #expect(try await AppClient(baseURL: daemon.baseURL).get("/v1/me").status == 200)
        daemon.signal(SIGINT)
        #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
        #expect(daemon.log.contains(#""signal":"SIGINT""#))
        #expect(daemon.log.contains("stopped"))
    }

    @Test func aPortInUseFailsTheStartNamingTheAppServer() async throws {
        let occupant = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 1)) { _ in
            .text(200, "")
        }
        try occupant.start()
        var configuration = UpstreamFailureTests.sandboxConfiguration()
        configuration.port = occupant.port
        let error = await #expect(throws: ServiceGroupError.self) {
            _ = try await UpstreamFailureTests.start(configuration)
        }
        #expect(error?.service == "app server")
        #expect(error?.code == .startFailed)
        await occupant.shutdown(gracePeriod: .zero)
    }
}
