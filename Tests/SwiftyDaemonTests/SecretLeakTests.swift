import Foundation
import HTTPTypes
import ServiceTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Secrets never leak: the daemon in live mode (debug logging) in front of the sandbox upstreams
/// binary, called on every route with known tokens, including failing calls, never writes a
/// bearer token or a signing key to its output or into an answer: raw, base64 (standard and URL
/// alphabets), hex or percent-encoded.
@Suite(.timeLimit(.minutes(2)))
struct SecretLeakTests {
    static let tokens = ["sandbox-alice", "sandbox-bob", "sandbox-carol", "not-a-real-token-3f9c2e"]

    /// Every spelling of `secret` a log or an answer could carry.
    static func spellings(of secret: [UInt8]) -> [String] {
        let data = Data(secret)
        let base64 = data.base64EncodedString()
        let unpadded = base64.replacingOccurrences(of: "=", with: "")
        let urlAlphabet = unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let hex = secret.map { String(format: "%02x", $0) }.joined()
        let percent = secret.map { String(format: "%%%02X", $0) }.joined()
        var spellings = [unpadded, urlAlphabet, hex, hex.uppercased(), percent]
        if let text = String(bytes: secret, encoding: .utf8) { spellings.append(text) }
        // A prefix long enough to be the secret and not a coincidence.
        return spellings.map { String($0.prefix(24)) }
    }

    @Test func noTokenOrKeyReachesTheLogOrAnAnswer() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secret-leak-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = directory.appendingPathComponent("keys")
        let sandboxBinary = DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent(
            "sandbox-upstreams")
        let sandbox = try ChildProcess(
            sandboxBinary.path, arguments: ["--keys", keys.path, "--generate-keys"], output: .separate)
        defer { sandbox.signal(SIGTERM) }
        var urls: [String: String] = [:]
        for _ in 0..<500 where urls.count < 3 {
            for line in sandbox.standardOutput.split(separator: "\n") {
                let parts = line.split(separator: " ")
                if parts.count == 2 { urls[String(parts[0])] = String(parts[1]) }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(urls.count == 3, "sandbox URLs: \(sandbox.standardOutput) \(sandbox.standardError)")

        var modules: [String] = []
        var secrets: [(String, String)] = Self.tokens.flatMap { token in
            Self.spellings(of: Array(token.utf8)).map { ("token \(token)", $0) }
        }
        for (domain, module, keyID) in [
            ("user", "UserModule", "user-1"), ("feed", "FeedModule", "feed-1"),
            ("payment", "PaymentModule", "payment-1"),
        ] {
            let file = keys.appendingPathComponent("\(keyID).key")
            let line = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let secret = try #require(Data(base64Encoded: line))
            secrets += Self.spellings(of: Array(secret)).map { ("key \(keyID)", $0) }
            secrets.append(("key file \(keyID)", String(line.prefix(24))))
            modules.append(
                #""\#(module)": {"baseURL": "\#(urls[domain] ?? "")", "keyID": "\#(keyID)", "keyFile": "\#(file.path)"}"#
            )
        }
        let configuration = directory.appendingPathComponent("swiftyd.json")
        try Data(
            #"{"mode": "live", "logging": {"level": "debug"}, "modules": {\#(modules.joined(separator: ", "))}}"#.utf8
        ).write(to: configuration)

        let daemon = try await DaemonProcess.start(arguments: ["--config", configuration.path])
        let app = AppClient(baseURL: daemon.baseURL)
        var answers: [String] = []
        func record(_ answer: AppClient.Answer) {
            answers.append(
                answer.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n" + answer.text)
        }
        for token in Self.tokens {
            for path in ["/v1/me", "/v1/users/bob", "/v1/feed?limit=2", "/v1/wallet", "/v1/home", "/v1/payments/x"] {
                record(try await app.get(path, token: token))
            }
            record(try await app.send(.put, "/v1/me/following/bob", token: token))
            record(try await app.send(.delete, "/v1/me/following/bob", token: token))
            record(try await app.send(.post, "/v1/posts", token: token, json: #"{"text": "secret-free"}"#))
            record(
                try await app.send(
                    .post, "/v1/payments", token: token, headers: ["Idempotency-Key": "leak-\(token)"],
                    json: #"{"payee": "carol", "amountMinor": 1, "currency": "EUR"}"#))
            record(try await app.send(.get, "/v1/me", token: nil, headers: ["Authorization": "Basic \(token)"]))
        }
        let admin = AppClient(baseURL: daemon.adminURL)
        record(try await admin.get("/metrics", token: nil))
        daemon.signal(SIGTERM)
        _ = await daemon.waitForExit(limit: .seconds(15))

        let output = daemon.log + sandbox.standardError + sandbox.standardOutput
        #expect(output.contains(#""level":"debug""#), "debug lines were written")
        #expect(output.contains(#""label":"swiftyd.access""#), "the access log was written")
        #expect(answers.contains { $0.contains("\"id\":\"alice\"") }, "the calls were served")
        for (name, spelling) in secrets {
            #expect(!output.contains(spelling), "\(name) in the output")
            #expect(!answers.contains { $0.contains(spelling) }, "\(name) in an answer")
        }
    }
}
