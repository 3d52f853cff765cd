import CurlTransport
import Foundation
import SandboxUpstreams
import ServiceTesting
import Synchronization
import Testing

@testable import SwiftyDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// SIGHUP reloads a live-mode `swiftyd` against the sandbox upstreams (run in the test's own
/// process): new requests use the new configuration, a broken or restart-only change keeps the
/// old one, requests in flight finish on the set they started with, and systemd is told.
@Suite(.timeLimit(.minutes(3)))
struct ConfigurationReloadTests {
    /// The sandbox upstreams with their keys in a directory, and a live-mode configuration file
    /// for the daemon pointing at them.
    final class Fixture: Sendable {
        let directory: URL
        let sandbox: SandboxUpstreams
        var configurationPath: String { directory.appendingPathComponent("swiftyd.json").path }

        /// - Parameter keyIDs: The key ids the sandbox trusts instead of the modules' defaults.
        init(keyIDs: [SandboxService: String] = [:]) async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID())")
            let keys = try SandboxKeys.generate(keyIDs: keyIDs)
            try keys.write(toDirectory: directory.path)
            var settings = SandboxUpstreams.Configuration()
            settings.host = "127.0.0.1"
            sandbox = try await SandboxUpstreams.start(keys: keys, configuration: settings)
        }

        func keyFile(_ keyID: String) -> String { directory.appendingPathComponent("\(keyID).key").path }

        /// Writes a key file of fresh random bytes that no upstream trusts.
        func writeUntrustedKey(_ keyID: String) throws {
            let secret = (0..<32).map { _ in UInt8.random(in: 0...255) }
            try Data((Data(secret).base64EncodedString() + "\n").utf8).write(to: URL(fileURLWithPath: keyFile(keyID)))
        }

        /// Writes the configuration: every module bound to its upstream with `keyIDs` (the
        /// modules' defaults unless given), and `extra` top-level fields (`"threads": 2`).
        func writeConfiguration(keyIDs: [SandboxService: String] = [:], extra: [String] = [], module: String = "")
            throws
        {
            let modules = SandboxService.allCases.map { service in
                let keyID = keyIDs[service] ?? service.defaultKeyID
                let more = service == .feed && !module.isEmpty ? ", \(module)" : ""
                return #""\#(service.moduleName)": {"baseURL": "\#(sandbox.baseURLString(for: service))", "#
                    + #""keyID": "\#(keyID)", "keyFile": "\#(keyFile(keyID))"\#(more)}"#
            }
            let fields = [#""mode": "live""#, #""modules": {\#(modules.joined(separator: ", "))}"#] + extra
            try write("{" + fields.joined(separator: ", ") + "}")
        }

        func write(_ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: configurationPath))
        }

        func stop() async {
            await sandbox.shutdown(gracePeriod: .zero)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Waits (at most 30 s) until `text` occurs `count` times in the daemon's output.
    static func waitForLog(_ daemon: DaemonProcess, _ text: String, count: Int = 1) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while daemon.log.components(separatedBy: text).count - 1 < count && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(
            daemon.log.components(separatedBy: text).count - 1 >= count,
            "\"\(text)\" \(count) times in:\n\(daemon.log)")
    }

    static func metric(_ daemon: DaemonProcess, _ series: String) async throws -> String? {
        let text = try await AppClient(baseURL: daemon.adminURL).get("/metrics", token: nil).text
        return text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.map {
            String($0.dropFirst(series.count + 1))
        }
    }

    @Test func restartOnlyChangesNameTheirFields() {
        let running = DaemonConfiguration()
        var next = running
        next.modules["FeedModule"] = .init(baseURL: "http://127.0.0.1:1", keyID: "feed-2", keyFile: "feed-2.key")
        next.rateLimits.reads.perUser = RateLimitPolicy(name: "reads-user", quota: 9, window: .seconds(1))
        next.maxInFlight = 7
        next.requestDeadlineMilliseconds = 99
        next.trustedProxies = ["10.0.0.1"]
        #expect(ConfigurationReloader.restartOnlyChanges(from: running, to: next).isEmpty)
        next.port = 1
        next.threads = 3
        next.mode = .live
        next.logging.level = "debug"
        #expect(
            ConfigurationReloader.restartOnlyChanges(from: running, to: next) == ["mode", "port", "threads", "logging"])
    }

    @Test func aNewKeyIDAndKeyFileSignTheRequestsAfterTheReload() async throws {
        // The user upstream trusts only user-2; the daemon starts signing with an untrusted user-1.
        let fixture = try await Fixture(keyIDs: [.user: "user-2"])
        defer { Task { await fixture.stop() } }
        try fixture.writeUntrustedKey("user-1")
        try fixture.writeConfiguration(keyIDs: [.user: "user-1"])
        let daemon = try await DaemonProcess.start(arguments: ["--config", fixture.configurationPath])
        let app = AppClient(baseURL: daemon.baseURL)
        #expect(try await app.get("/v1/me").status != 200, "the upstream refuses the untrusted user-1")

        try fixture.writeConfiguration(keyIDs: [.user: "user-2"])
        daemon.signal(SIGHUP)
        try await Self.waitForLog(daemon, "configuration reloaded")
        let me = try await app.get("/v1/me")
        #expect(me.status == 200, "\(me.text)")
        #expect(try await Self.metric(daemon, #"swiftyd_config_reloads_total{result="success"}"#) == "1")
        #expect(try await Self.metric(daemon, #"swiftyd_config_reloads_total{result="failure"}"#) == "0")
        let loaded = try #require(try await Self.metric(daemon, "swiftyd_config_last_reload_success_timestamp_seconds"))
        let seconds = try #require(Double(loaded))
        #expect(abs(seconds - Date().timeIntervalSince1970) < 300, "loaded at \(seconds)")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
    }

    @Test func aBrokenConfigurationKeepsTheRunningOne() async throws {
        let fixture = try await Fixture()
        defer { Task { await fixture.stop() } }
        try fixture.writeConfiguration()
        let daemon = try await DaemonProcess.start(arguments: ["--config", fixture.configurationPath])
        let app = AppClient(baseURL: daemon.baseURL)
        #expect(try await app.get("/v1/me").status == 200)

        try fixture.write(#"{"mode": "live", "modules": {"#)
        daemon.signal(SIGHUP)
        try await Self.waitForLog(daemon, "configuration reload failed")
        #expect(daemon.log.contains("is not valid"), "the line names the file's problem:\n\(daemon.log)")
        #expect(try await app.get("/v1/me").status == 200)
        #expect(try await app.get("/v1/feed?limit=2").status == 200)

        // A key file that is not there: named, and the old keys keep signing.
        try fixture.writeConfiguration(keyIDs: [.feed: "feed-9"])
        daemon.signal(SIGHUP)
        try await Self.waitForLog(daemon, "configuration reload failed", count: 2)
        #expect(daemon.log.contains("modules.FeedModule.keyFile"), "\(daemon.log)")
        #expect(try await app.get("/v1/feed?limit=2").status == 200)
        #expect(try await Self.metric(daemon, #"swiftyd_config_reloads_total{result="failure"}"#) == "2")
        #expect(try await Self.metric(daemon, #"swiftyd_config_reloads_total{result="success"}"#) == "0")
        #expect(!daemon.log.contains("configuration reloaded"))
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
    }

    @Test func aChangedPortIsRefusedAndNothingOfTheReloadApplies() async throws {
        // The user upstream trusts only user-2: a reload that applied the key change would fix /v1/me.
        let fixture = try await Fixture(keyIDs: [.user: "user-2"])
        defer { Task { await fixture.stop() } }
        try fixture.writeUntrustedKey("user-1")
        try fixture.writeConfiguration(keyIDs: [.user: "user-1"], extra: [#""port": 0"#, #""adminPort": 0"#])
        let daemon = try await DaemonProcess.start(
            arguments: ["--config", fixture.configurationPath], portFlags: false)
        let app = AppClient(baseURL: daemon.baseURL)
        #expect(try await app.get("/v1/me").status != 200)

        try fixture.writeConfiguration(keyIDs: [.user: "user-2"], extra: [#""port": 1"#, #""adminPort": 0"#])
        daemon.signal(SIGHUP)
        try await Self.waitForLog(daemon, "configuration reload failed")
        #expect(daemon.log.contains("port cannot change without a restart"), "\(daemon.log)")
        #expect(try await app.get("/v1/me").status != 200, "the key change was not applied either")
        #expect(try await Self.metric(daemon, #"swiftyd_config_reloads_total{result="failure"}"#) == "1")

        // The same change without the port applies.
        try fixture.writeConfiguration(keyIDs: [.user: "user-2"], extra: [#""port": 0"#, #""adminPort": 0"#])
        daemon.signal(SIGHUP)
        try await Self.waitForLog(daemon, "configuration reloaded")
        #expect(try await app.get("/v1/me").status == 200)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
    }

    @Test func requestsInFlightDuringAReloadFinishOnTheOldSet() async throws {
        let fixture = try await Fixture()
        defer { Task { await fixture.stop() } }
        try fixture.writeConfiguration()
        let daemon = try await DaemonProcess.start(arguments: ["--config", fixture.configurationPath])
        // libcurl, which holds all the calls in flight at once on their own connections.
        let curl = CurlTransport(configuration: .sized(forConcurrency: 64))
        defer { Task { await curl.shutdown() } }
        let app = AppClient(baseURL: daemon.baseURL, transport: curl)
        #expect(try await app.get("/v1/me").status == 200, "the token is cached before the feed slows down")
        try fixture.sandbox.setFaults(FaultSettings(latency: .milliseconds(1500)), for: .feed)

        let calls = 20
        let statuses = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<calls { group.addTask { try await app.get("/v1/feed?limit=2").status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        while try await Self.metric(daemon, "swiftyd_http_requests_in_flight") != "\(calls)" && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try await Self.metric(daemon, "swiftyd_http_requests_in_flight") == "\(calls)")
        try fixture.writeConfiguration(module: #""timeoutMilliseconds": 4000, "retryAttempts": 1"#)
        daemon.signal(SIGHUP)
        try await Self.waitForLog(daemon, "configuration reloaded")

        let answered = try await statuses.value
        #expect(answered.count == calls)
        #expect(answered.allSatisfy { $0 == 200 }, "\(answered)")
        // The old set's transports closed only once its requests were done.
        try await Self.waitForLog(daemon, "configuration generation retired")
        #expect(daemon.log.contains(#""requests_cut":"0""#), "\(daemon.log)")
        #expect(try await app.get("/v1/feed?limit=2").status == 200)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
    }

    @Test func aKeyRotationUnderLoadFailsNoRequest() async throws {
        let fixture = try await Fixture()
        defer { Task { await fixture.stop() } }
        try fixture.writeConfiguration()
        let daemon = try await DaemonProcess.start(arguments: ["--config", fixture.configurationPath])
        let curl = CurlTransport(configuration: .sized(forConcurrency: 16))
        defer { Task { await curl.shutdown() } }
        let app = AppClient(baseURL: daemon.baseURL, transport: curl)
        #expect(try await app.get("/v1/users/bob").status == 200)

        // Four clients call the user upstream through the daemon until told to stop.
        let stop = Stop()
        let load = Task {
            try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var statuses: [Int] = []
                        for _ in 0..<20_000 where !stop.isSet {
                            statuses.append(try await app.get("/v1/users/bob").status)
                        }
                        return statuses
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
        func sent() async throws -> Int {
            Int(try await Self.metric(daemon, #"swiftyd_upstream_attempts_total{module="UserModule"}"#) ?? "") ?? 0
        }
        func letTheLoadRun() async throws {
            let start = try await sent()
            for _ in 0..<500 where try await sent() < start + 50 { try await Task.sleep(for: .milliseconds(10)) }
        }
        try await letTheLoadRun()

        // 1. The upstream trusts user-2 beside user-1.
        let aside = fixture.directory.appendingPathComponent("aside")
        try SandboxKeys.generate(keyIDs: [.user: "user-2", .feed: "feed-2", .payment: "payment-2"])
            .write(toDirectory: aside.path)
        try FileManager.default.moveItem(
            at: aside.appendingPathComponent("user-2.key"), to: URL(fileURLWithPath: fixture.keyFile("user-2")))
        try fixture.sandbox.trust(SandboxKeyRing.load(fromDirectory: fixture.directory.path))
        try await letTheLoadRun()
        // 2. The daemon signs with user-2.
        try fixture.writeConfiguration(keyIDs: [.user: "user-2"])
        daemon.signal(SIGHUP)
        try await Self.waitForLog(daemon, "configuration reloaded")
        try await Self.waitForLog(daemon, "configuration generation retired")
        try await letTheLoadRun()
        // 3. The old key is retired at the upstream.
        try FileManager.default.removeItem(atPath: fixture.keyFile("user-1"))
        try fixture.sandbox.trust(SandboxKeyRing.load(fromDirectory: fixture.directory.path))
        try await letTheLoadRun()
        stop.set()

        let statuses = try await load.value
        #expect(statuses.count >= 200, "\(statuses.count) requests")
        let failed = statuses.filter { $0 != 200 }
        #expect(failed.isEmpty, "\(failed.count) of \(statuses.count) failed: \(Set(failed))")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
    }

    @Test func aReloadInSandboxModeChangesTheFaults() async throws {
        var configuration = UpstreamFailureTests.sandboxConfiguration()
        configuration.sandbox.errorRate = 0
        let daemon = try await UpstreamFailureTests.start(configuration)
        let path = try DaemonProcess.configurationFile(
            #"{"port": 0, "adminPort": 0, "drainDelaySeconds": 0, "drainSeconds": 2, "sandbox": {"errorRate": 1}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sandbox = try #require(daemon.sandbox)
        #expect(sandbox.upstreams.faults(for: .feed).errorRate == 0)
        #expect(
            await daemon.reload(arguments: try DaemonArguments(parsing: ["--config", path])) == .applied(generation: 2))
        #expect(sandbox.upstreams.faults(for: .feed).errorRate == 1)
        #expect(daemon.configuration.sandbox.errorRate == 1)

        let port = try DaemonProcess.configurationFile(#"{"port": 1, "adminPort": 0, "drainDelaySeconds": 0}"#)
        defer { try? FileManager.default.removeItem(atPath: port) }
        let refused = await daemon.reload(arguments: try DaemonArguments(parsing: ["--config", port]))
        #expect(
            refused
                == .kept(
                    problem: "port, drainSeconds cannot change without a restart; nothing of the reload was applied"))
        #expect(daemon.metrics.configReloads.value(["failure"]) == 1)
        #expect(daemon.metrics.configReloads.value(["success"]) == 1)
        await daemon.drain()
    }

    @Test func systemdHearsReloadingThenReadyForEveryReload() async throws {
        let fixture = try await Fixture()
        defer { Task { await fixture.stop() } }
        try fixture.writeConfiguration()
        let notify = try NotifySocket()
        let daemon = try await DaemonProcess.start(
            arguments: ["--config", fixture.configurationPath], environment: ["NOTIFY_SOCKET": notify.path])
        #expect(try await notify.receive() == "READY=1")

        let before = SystemdNotifier.monotonicMicroseconds()
        daemon.signal(SIGHUP)
        let reloading = try #require(try await notify.receive())
        let after = SystemdNotifier.monotonicMicroseconds()
        let fields = reloading.split(separator: "\n").map(String.init)
        #expect(fields.first == "RELOADING=1", "\(reloading)")
        let stamp = try #require(fields.first { $0.hasPrefix("MONOTONIC_USEC=") }.flatMap { UInt64($0.dropFirst(15)) })
        #expect(stamp >= before && stamp <= after, "MONOTONIC_USEC \(stamp) not in [\(before), \(after)]")
        let ready = try #require(try await notify.receive())
        #expect(ready.hasPrefix("READY=1\nSTATUS=configuration 2 in use"), "\(ready)")

        try fixture.write("not json")
        daemon.signal(SIGHUP)
        #expect(try await notify.receive()?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
        let failed = try #require(try await notify.receive())
        #expect(failed.hasPrefix("READY=1\nSTATUS=reload failed"), "\(failed)")
        #expect(failed.contains(fixture.configurationPath), "the status names the file: \(failed)")

        daemon.signal(SIGTERM)
        #expect(try await notify.receive() == "STOPPING=1")
        #expect(await daemon.waitForExit(limit: .seconds(30)) == 0)
    }
}

/// A flag the load's clients read to stop.
private final class Stop: Sendable {
    private let flag = Mutex(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}
