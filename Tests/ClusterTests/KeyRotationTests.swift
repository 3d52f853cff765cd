import Foundation
import HTTPTypes
import RequestSigning
import SandboxUpstreams
import ServiceCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The key rotation runbook of docs/signing.md, on the cluster, under load.
@Suite struct KeyRotationTests {
    @Test func rotatingThePaymentKeyUnderLoadFailsNoRequest() async throws {
        try await Cluster.with(rateLimits: rateLimitsOff) { cluster in
            let client = ClusterClient()
            let load = LoadLoop(concurrency: 4) { _ in
                try await client.send(.get, cluster.url + "/v1/wallet", user: "alice").status
            }
            let keys = cluster.keysDirectory
            let tag = SandboxService.payment.tag

            // 1. The upstreams trust the new key beside the old.
            var secret = [UInt8](repeating: 0, count: 32)
            for index in secret.indices { secret[index] = UInt8.random(in: 0...255) }
            let newKeyFile = keys + "/payment-2.key"
            try Data((Data(secret).base64EncodedString() + "\n").utf8).write(to: URL(fileURLWithPath: newKeyFile))
            chmod(newKeyFile, 0o600)
            let newKey = try SigningKey.load(id: "payment-2", tag: tag, fromFile: newKeyFile)
            let oldKey = try SigningKey.load(id: "payment-1", tag: tag, fromFile: keys + "/payment-1.key")
            for replica in 1...2 {
                cluster.signalSandbox(replica, SIGHUP)
                try await expectEventually("sandbox \(replica) trusts payment-2") {
                    try await signedStatus(cluster.sandboxURL(replica, "payment"), key: newKey) == 200
                }
            }

            // 2. The daemons, one by one, sign with the new key.
            for daemon in 1...2 {
                let path = cluster.daemonConfiguration(daemon)
                let text = try String(contentsOfFile: path, encoding: .utf8)
                try text.replacingOccurrences(of: "\"payment-1\"", with: "\"payment-2\"")
                    .replacingOccurrences(of: "/payment-1.key", with: "/payment-2.key")
                    .write(toFile: path, atomically: true, encoding: .utf8)
                cluster.signalDaemon(daemon, SIGHUP)
                try await expectEventually("daemon \(daemon) reloaded") {
                    let metrics = try await client.send(.get, cluster.adminURL(daemon) + "/metrics", user: nil).text
                    return metrics.contains("swifty_config_reloads_total{result=\"success\"} 1")
                }
            }

            // 3. The old key is retired.
            try FileManager.default.removeItem(atPath: keys + "/payment-1.key")
            for replica in 1...2 {
                cluster.signalSandbox(replica, SIGHUP)
                try await expectEventually("sandbox \(replica) refuses payment-1") {
                    try await signedStatus(cluster.sandboxURL(replica, "payment"), key: oldKey) == 401
                }
            }
            try await Task.sleep(for: .milliseconds(500))
            let outcome = await load.stop()
            #expect(outcome.failures.isEmpty, "\(outcome.failures.prefix(3))")
            #expect(outcome.statuses.keys.sorted() == [200], "\(outcome.statuses)")
            #expect((outcome.statuses[200] ?? 0) > 0)
        }
    }

    /// The status of a `GET /v1/wallets/alice` signed with `key`, sent to `base`.
    private func signedStatus(_ base: String, key: SigningKey) async throws -> Int {
        let url = try #require(URL(string: base + "/v1/wallets/alice"))
        let request = try RequestSigner(key: key).sign(HTTPRequest(method: .get, url: url))
        return try await ClusterClient().transport.send(request).status
    }

    /// Waits (at most 20 s) until `condition` holds.
    private func expectEventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<200 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("not within 20 s: \(what)")
    }
}
