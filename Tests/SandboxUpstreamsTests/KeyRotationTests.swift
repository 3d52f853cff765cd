import Foundation
import HTTPTypes
import RequestSigning
import SandboxUpstreams
import ServiceCore
import ServiceTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Key rotation at the upstreams: each trusts every key file of its service in the key
/// directory, and a reload swaps the trusted keys without touching requests in flight or the
/// nonces already seen.
@Suite(.timeLimit(.minutes(1)))
struct KeyRotationTests {
    /// A key directory with the default keys (`user-1`, `feed-1`, `payment-1`) and a second user
    /// key, `user-2`, made aside and returned.
    static func keyDirectory() throws -> (directory: URL, keys: SandboxKeys, next: SandboxKey) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rotation-\(UUID())")
        let keys = try SandboxKeys.generate()
        try keys.write(toDirectory: directory.path)
        let aside = directory.appendingPathComponent("aside")
        let next = try SandboxKeys.generate(keyIDs: [.user: "user-2", .feed: "feed-2", .payment: "payment-2"])
        try next.write(toDirectory: aside.path)
        try FileManager.default.moveItem(
            at: aside.appendingPathComponent("user-2.key"), to: directory.appendingPathComponent("user-2.key"))
        try FileManager.default.removeItem(at: aside)
        return (directory, keys, next.user)
    }

    /// `GET /v1/users/alice` on the user upstream signed with `key`.
    static func signedProfile(_ fixture: SandboxFixture, key: SigningKey, baseURL: String? = nil) throws -> HTTPRequest
    {
        let url = try #require(URL(string: (baseURL ?? fixture.sandbox.baseURLString(for: .user)) + "/v1/users/alice"))
        return try RequestSigner(key: key).sign(HTTPRequest(method: .get, url: url, timeout: .seconds(10)))
    }

    static func problemCode(_ response: HTTPResponse) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else { return nil }
        return object["code"] as? String
    }

    @Test func bothKeysAreTrustedThenTheRetiredOneIsRefused() async throws {
        let (directory, keys, next) = try Self.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ring = try SandboxKeyRing.load(fromDirectory: directory.path)
        #expect(ring[.user].map(\.keyID) == ["user-1", "user-2"])
        #expect(ring[.feed].map(\.keyID) == ["feed-1"])
        #expect(try ring.primary.user.keyID == "user-1")

        let fixture = try await SandboxFixture.start(keys: keys)
        defer { Task { await fixture.shutdown() } }
        let old = keys.user.signingKey
        #expect(try await fixture.transport.send(Self.signedProfile(fixture, key: next.signingKey)).status == 401)
        try fixture.sandbox.trust(ring)
        #expect(try await fixture.transport.send(Self.signedProfile(fixture, key: old)).status == 200)
        #expect(try await fixture.transport.send(Self.signedProfile(fixture, key: next.signingKey)).status == 200)
        // Seen before the swap: refused after it as a replay, the guard being the same.
        let seen = try Self.signedProfile(fixture, key: next.signingKey)
        #expect(try await fixture.transport.send(seen).status == 200)

        try FileManager.default.removeItem(at: directory.appendingPathComponent("user-1.key"))
        try fixture.sandbox.trust(try SandboxKeyRing.load(fromDirectory: directory.path))
        let retired = try await fixture.transport.send(Self.signedProfile(fixture, key: old))
        #expect(retired.status == 401)
        #expect(Self.problemCode(retired) == "key_unknown")
        #expect(try await fixture.transport.send(Self.signedProfile(fixture, key: next.signingKey)).status == 200)
        let replayed = try await fixture.transport.send(seen)
        #expect(replayed.status == 401)
        #expect(Self.problemCode(replayed) == "signature_replayed")
        // The other upstreams kept their one key.
        #expect(try await fixture.sendSigned(.get, "/v1/timelines/carol?limit=1", to: .feed).status == 200)
    }

    @Test func aBadKeyFileOrAServiceWithoutKeysFailsTheLoadNamingIt() throws {
        let (directory, _, _) = try Self.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("not base64 at all\n".utf8).write(to: directory.appendingPathComponent("user-3.key"))
        let bad = #expect(throws: SandboxError.self) { try SandboxKeyRing.load(fromDirectory: directory.path) }
        #expect(bad?.description.contains("user-3.key") == true, "\(String(describing: bad))")

        try FileManager.default.removeItem(at: directory.appendingPathComponent("user-3.key"))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("feed-1.key"))
        let missing = #expect(throws: SandboxError.self) { try SandboxKeyRing.load(fromDirectory: directory.path) }
        #expect(missing?.description.contains("no key file feed-*.key") == true, "\(String(describing: missing))")
    }

    @Test func theBinaryReloadsTheKeyDirectoryOnSIGHUP() async throws {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("sandbox-upstreams")
        let (directory, keys, next) = try Self.keyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Only the default keys at start.
        let nextFile = directory.appendingPathComponent("user-2.key")
        let staged = directory.appendingPathComponent("user-2.staged")
        try FileManager.default.moveItem(at: nextFile, to: staged)
        let running = try ChildProcess(binary.path, arguments: ["--keys", directory.path], output: .separate)
        defer { running.signal(SIGKILL) }
        var userURL: String?
        for _ in 0..<500 where userURL == nil && running.termination == nil {
            userURL = running.standardOutput.split(separator: "\n").first { $0.hasPrefix("user ") }.map {
                String($0.dropFirst(5))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let baseURL = try #require(userURL, "no URL printed: \(running.standardError)")
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.shutdown() } }
        func status(_ key: SigningKey) async throws -> Int {
            try await fixture.transport.send(Self.signedProfile(fixture, key: key, baseURL: baseURL)).status
        }
        func waitForLine(_ text: String, count: Int) async throws {
            for _ in 0..<1500 where running.standardError.components(separatedBy: text).count - 1 < count {
                try await Task.sleep(for: .milliseconds(20))
            }
            try #require(
                running.standardError.components(separatedBy: text).count - 1 >= count,
                "\(text) \(count) times in: \(running.standardError)")
        }
        #expect(try await status(keys.user.signingKey) == 200)
        #expect(try await status(next.signingKey) == 401)

        // 1. The new key beside the old: both trusted.
        try FileManager.default.moveItem(at: staged, to: nextFile)
        running.signal(SIGHUP)
        try await waitForLine("keys reloaded, trusting user: user-1, user-2;", count: 1)
        #expect(try await status(keys.user.signingKey) == 200)
        #expect(try await status(next.signingKey) == 200)

        // A bad file: one line, the keys in use stay.
        try Data("!!\n".utf8).write(to: directory.appendingPathComponent("user-9.key"))
        running.signal(SIGHUP)
        try await waitForLine("keys not reloaded, the previous keys stay trusted", count: 1)
        #expect(running.standardError.contains("user-9.key"))
        #expect(try await status(keys.user.signingKey) == 200)
        #expect(try await status(next.signingKey) == 200)

        // 2. The old key retired.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("user-9.key"))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("user-1.key"))
        running.signal(SIGHUP)
        try await waitForLine("keys reloaded, trusting user: user-2;", count: 1)
        #expect(try await status(keys.user.signingKey) == 401)
        #expect(try await status(next.signingKey) == 200)

        running.signal(SIGTERM)
        #expect(await running.waitForExitOrKill(timeout: .seconds(15))?.status == 0, "\(running.standardError)")
    }
}
