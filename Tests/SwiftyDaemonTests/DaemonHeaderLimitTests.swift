import Foundation
import HTTPTypes
import ServiceCore
import Testing

/// Request heads over `maxHeaderBytes` get a 431 problem from the daemon itself; the limit (and
/// with it each connection's buffer) is configurable.
@Suite(.timeLimit(.minutes(3)))
struct DaemonHeaderLimitTests {
    /// Sends `GET /v1/users/bob` with one extra field of `padding` bytes.
    private func get(_ app: AppClient, padding: Int) async throws -> AppClient.Answer {
        try await app.send(.get, "/v1/users/bob", headers: ["X-Pad": String(repeating: "p", count: padding)])
    }

    @Test func theDefaultLimitIsEightKiB() async throws {
        let daemon = try await DaemonProcess.start()
        let app = AppClient(baseURL: daemon.baseURL)
        #expect(try await get(app, padding: 7_000).status == 200)
        let over = try await get(app, padding: 9_000)
        #expect(over.status == 431)
        #expect(over.headers["content-type"] == "application/problem+json")
        #expect((over.json?["detail"] as? String)?.contains("8192 bytes") == true, "\(over.text)")
        #expect(try await app.get("/v1/me").status == 200)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(20)) == 0)
    }

    @Test func aLargerLimitFromTheConfigurationFileIsServed() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("header-limit-\(UUID()).json")
        try Data(#"{"maxHeaderBytes": 40000}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let daemon = try await DaemonProcess.start(arguments: ["--config", file.path])
        let app = AppClient(baseURL: daemon.baseURL)
        #expect(try await get(app, padding: 30_000).status == 200)
        let over = try await get(app, padding: 41_000)
        #expect(over.status == 431)
        #expect(over.headers["content-type"] == "application/problem+json")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(20)) == 0)
    }
}
