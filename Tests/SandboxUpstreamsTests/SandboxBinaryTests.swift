import EventLoops
import Foundation
import HTTPServer
import HTTPTypes
import RedisClient
import RedisTestSupport
import RequestSigning
import SandboxUpstreams
import ServiceCore
import ServiceTesting
import Testing
import UserModule

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `sandbox-upstreams` executable, which sits beside the test bundle.
@Suite(.timeLimit(.minutes(1)))
struct SandboxBinaryTests {
    private static var binary: URL? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let candidate = URL(fileURLWithPath: executable).deletingLastPathComponent()
            .appendingPathComponent("sandbox-upstreams")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// Starts the binary; pinned to one CPU through `taskset` when `cpu` is given.
    private func launch(_ arguments: [String], pinnedTo cpu: Int? = nil) throws -> ChildProcess {
        let binary = try #require(Self.binary, "sandbox-upstreams was not built beside the tests")
        guard let cpu else { return try ChildProcess(binary.path, arguments: arguments) }
        return try ChildProcess("/usr/bin/taskset", arguments: ["-c", String(cpu), binary.path] + arguments)
    }

    /// Waits for the process to end, at most `limit` (it is killed after that), and returns its
    /// status, or `nil` if it had to be killed.
    private func waitForExit(_ child: ChildProcess, limit: Duration) async -> Int32? {
        await child.waitForExitOrKill(timeout: limit)?.status
    }

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-binary-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func servesSignedCallsAndDrainsOnSIGTERM() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = directory.appendingPathComponent("keys").path
        let running = try launch(
            ["--keys", keys, "--generate-keys", "--user-port", "0", "--feed-port", "0", "--payment-port", "0"])
        // The three base URLs, one line each, within ten seconds.
        let urls = try await printedURLs(running)
        guard urls.count == 3, let userURL = urls["user"] else {
            _ = await waitForExit(running, limit: .zero)
            Issue.record("no URLs printed: \(running.standardOutput) \(running.standardError)")
            return
        }
        #expect(Set(urls.keys) == ["user", "feed", "payment"])
        #expect(urls.values.allSatisfy { $0.hasPrefix("http://127.0.0.1:") })

        // One call signed with the key the binary wrote.
        let loaded = try SandboxKeys.load(fromDirectory: keys)
        let fixture = try await SandboxFixture.start(.curl)
        do {
            let users = try UserClient(
                domain: .sandbox(baseURL: userURL), transport: fixture.transport,
                middlewares: fixture.middlewares(for: .user, key: loaded.user.signingKey))
            #expect(try await users.profile(id: "alice").displayName == "Alice Liddell")
        } catch {
            Issue.record(error)
        }
        await fixture.shutdown()

        running.signal(SIGTERM)
        let status = await waitForExit(running, limit: .seconds(15))
        #expect(status == 0, "\(running.standardError)")
    }

    /// How the network threads are counted: each upstream runs `--threads`, or two, or one when
    /// the process may run on one CPU only.
    enum ThreadChoice: String, CaseIterable, Sendable {
        case flagOne, flagThree, pinned, unpinned
    }

    @Test(arguments: ThreadChoice.allCases)
    func theUpstreamsShareTheChosenNumberOfNetworkThreads(_ choice: ThreadChoice) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = ["--keys", directory.appendingPathComponent("keys").path, "--generate-keys"]
        var cpu: Int?
        let threads: Int
        switch choice {
        case .flagOne:
            arguments += ["--threads", "1"]
            threads = 1
        case .flagThree:
            arguments += ["--threads", "3"]
            threads = 3
        case .pinned:
            cpu = try #require(CPUAffinity.allowedCPUs()?.first)
            threads = 1
        case .unpinned:
            threads = min(2, try #require(CPUAffinity.allowedCPUCount()))
        }
        let running = try launch(arguments, pinnedTo: cpu)
        #expect(try await printedURLs(running).count == 3, "\(running.standardError)")
        // The three upstreams and the token endpoint share the loops; each names its thread
        // `sandbox-N` as it starts, which may come just after the URLs are printed.
        var named = 0
        for _ in 0..<100 {
            named = networkThreads(of: running.pid)
            if named == threads { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(named == threads)
        running.signal(SIGTERM)
        #expect(await waitForExit(running, limit: .seconds(15)) == 0, "\(running.standardError)")
    }

    /// The threads of process `pid` named `sandbox-N`.
    private func networkThreads(of pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.filter { task in
            let name = FileManager.default.contents(atPath: "/proc/\(pid)/task/\(task)/comm") ?? Data()
            // `sandbox-0`, not the main thread's `sandbox-upstrea(ms)`.
            let text = String(decoding: name, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.hasPrefix("sandbox-") && text.dropFirst(8).allSatisfy(\.isNumber) && text.count > 8
        }.count
    }

    /// The base URLs the process printed, by name, once all three are there (within ten seconds).
    private func printedURLs(_ running: ChildProcess) async throws -> [String: String] {
        var urls: [String: String] = [:]
        let deadline = ContinuousClock.now + .seconds(10)
        while urls.count < 3 && running.termination == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            for line in running.standardOutput.split(separator: "\n") {
                let parts = line.split(separator: " ")
                if parts.count == 2 { urls[String(parts[0])] = String(parts[1]) }
            }
        }
        return urls
    }

    /// Verification is on unless `--no-verify` is given; with it, a warning is printed and an
    /// unsigned request is answered.
    @Test(arguments: [false, true])
    func noVerifyFlagTurnsVerificationOff(_ noVerify: Bool) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = directory.appendingPathComponent("keys").path
        let arguments = ["--keys", keys, "--generate-keys"] + (noVerify ? ["--no-verify"] : [])
        let running = try launch(arguments)
        let urls = try await printedURLs(running)
        guard let userURL = urls["user"], let url = URL(string: userURL + "/v1/users/alice") else {
            _ = await waitForExit(running, limit: .zero)
            Issue.record("no URLs printed: \(running.standardOutput) \(running.standardError)")
            return
        }
        let fixture = try await SandboxFixture.start(.curl)
        do {
            let response = try await fixture.transport.send(HTTPRequest(method: .get, url: url, timeout: .seconds(10)))
            #expect(response.status == (noVerify ? 200 : 401))
        } catch {
            Issue.record(error)
        }
        await fixture.shutdown()
        #expect(running.standardError.contains("warning: --no-verify") == noVerify)

        running.signal(SIGTERM)
        #expect(await waitForExit(running, limit: .seconds(15)) == 0, "\(running.standardError)")
    }

    @Test func usageErrorsExit64AndHelpExits0() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let usage = try launch(["--user-port", "x"])
        #expect(await waitForExit(usage, limit: .seconds(10)) == 64)
        #expect(usage.standardError.contains("error:"))
        let help = try launch(["--help"])
        #expect(await waitForExit(help, limit: .seconds(10)) == 0)
        #expect(help.standardOutput.contains("--keys DIR"))
        let missingKeys = try launch(["--keys", directory.appendingPathComponent("none").path])
        #expect(await waitForExit(missingKeys, limit: .seconds(10)) == 1)
        #expect(missingKeys.standardError.contains("user-1.key"))
    }

    /// `--redis` with `--redis-password-file`: the ledger lives in that Redis (its database, the
    /// default prefix), and the password shows nowhere in the output.
    @Test func keepsTheLedgerInRedisWithAPasswordFile() async throws {
        let password = "pw-\(UUID().uuidString)"
        try await RedisServer.with(arguments: ["--requirepass", password]) { server in
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let keys = directory.appendingPathComponent("keys").path
            let passwordFile = directory.appendingPathComponent("redis.password").path
            try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
            let port = try #require(server.port)
            let running = try launch([
                "--keys", keys, "--generate-keys", "--redis", "redis://127.0.0.1:\(port)/3",
                "--redis-password-file", passwordFile,
            ])
            let urls = try await printedURLs(running)
            guard let paymentURL = urls["payment"], let url = URL(string: paymentURL + "/v1/charges") else {
                _ = await waitForExit(running, limit: .zero)
                Issue.record("no URLs printed: \(running.standardOutput) \(running.standardError)")
                return
            }
            let fixture = try await SandboxFixture.start(.curl)
            do {
                let loaded = try SandboxKeys.load(fromDirectory: keys)
                let body = Data(
                    #"{"amount":{"amountMinor":250,"currency":"EUR"},"payeeId":"bob","payerId":"carol"}"#.utf8)
                let request = HTTPRequest(
                    method: .post, url: url,
                    headers: ["Content-Type": "application/json", "Idempotency-Key": "binary-1"], body: body,
                    timeout: .seconds(10))
                let response = try await fixture.transport.send(
                    RequestSigner(key: loaded.payment.signingKey).sign(request))
                #expect(response.status == 201)
            } catch {
                Issue.record(error)
            }
            await fixture.shutdown()
            running.signal(SIGTERM)
            #expect(await waitForExit(running, limit: .seconds(15)) == 0, "\(running.standardError)")
            #expect(!running.standardOutput.contains(password) && !running.standardError.contains(password))

            let loops = try EventLoopGroup(loopCount: 1, name: "check")
            var configuration = RedisConfiguration(endpoint: server.endpoint, database: 3)
            configuration.credentials = RedisCredentials(password: password)
            let client = RedisClient(configuration: configuration, eventLoops: loops)
            let balance = try? await client.send(["HGET", "swifty:sandbox:wallet:carol", "balance"])
            await client.shutdown()
            await loops.shutdown()
            let expected: Int64 = 25_000 - 250
            #expect(balance?.integerValue == expected)
        }
    }

    /// `--redis` mistakes exit 64 and never repeat a password; an unreachable Redis exits 1.
    @Test func redisUsageErrorsExit64() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = directory.appendingPathComponent("keys").path
        let secret = "s3cret-in-url"
        let inURL = try launch(["--keys", keys, "--generate-keys", "--redis", "redis://user:\(secret)@127.0.0.1:6390"])
        #expect(await waitForExit(inURL, limit: .seconds(10)) == 64)
        #expect(inURL.standardError.contains("--redis-password-file"))
        #expect(!inURL.standardError.contains(secret))
        let noFile = try launch(["--keys", keys, "--generate-keys", "--redis-password-file", "/nonexistent"])
        #expect(await waitForExit(noFile, limit: .seconds(10)) == 64)
        #expect(noFile.standardError.contains("--redis"))
        let closed = try ScriptedSocketServer.closedPort()
        let unreachable = try launch(["--keys", keys, "--generate-keys", "--redis", "redis://127.0.0.1:\(closed)"])
        #expect(await waitForExit(unreachable, limit: .seconds(20)) == 1)
        #expect(unreachable.standardError.contains("Redis at 127.0.0.1:\(closed)"))
    }
}
