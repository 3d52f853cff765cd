import AppLogging
import Foundation
import HTTPTypes
import SandboxUpstreams
import ServiceCore
import Testing

@testable import SwiftyDaemon

/// Bearer credentials end to end: the daemon in live mode against sandbox upstreams whose feed
/// upstream requires an access token from the sandbox's token endpoint, configured with
/// `modules.FeedModule.credentials`.
@Suite(.timeLimit(.minutes(2)))
struct CredentialRefreshDaemonTests {
    static let clientID = "swiftyd"

    /// The running sandbox, the daemon bound to it, and an app client.
    struct Setup {
        let sandbox: SandboxUpstreams
        let daemon: Daemon
        let app: AppClient
        let directory: URL

        func stop() async {
            await daemon.drain()
            await sandbox.shutdown(gracePeriod: .zero)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static func start(
        lifetime: Duration = .seconds(120), renewBeforeSeconds: Double = 0, secret: String = "feed-\(UUID())",
        log: InMemoryLogHandler? = nil
    ) async throws -> Setup {
        var settings = SandboxUpstreams.Configuration()
        settings.logger = Logger(label: "sandbox", handler: log ?? InMemoryLogHandler())
        settings.logger.logLevel = log == nil ? .critical : .debug
        settings.tokenClients = [clientID: secret]
        settings.accessTokenLifetime = lifetime
        settings.accessTokenRequired = [.feed]
        let keys = try SandboxKeys.generate()
        let sandbox = try await SandboxUpstreams.start(keys: keys, configuration: settings)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("creds-\(UUID().uuidString)")
        try keys.write(toDirectory: directory.path)
        let secretFile = directory.appendingPathComponent("feed-client.secret")
        try Data((secret + "\n").utf8).write(to: secretFile)

        var configuration = UpstreamFailureTests.sandboxConfiguration()
        configuration.mode = .live
        for service in SandboxService.allCases {
            configuration.modules[service.moduleName] = .init(
                baseURL: sandbox.baseURLString(for: service),
                keyFile: directory.appendingPathComponent(SandboxKeys.fileName(forKeyID: keys[service].keyID)).path)
        }
        configuration.modules["FeedModule"]?.credentials = ModuleCredentials(
            tokenURL: sandbox.tokenURLString, clientID: clientID, clientSecretFile: secretFile.path,
            renewBeforeSeconds: renewBeforeSeconds)
        do {
            var logger = Logger(label: "test", handler: log ?? InMemoryLogHandler())
            logger.logLevel = log == nil ? .critical : .debug
            let daemon = try await Daemon.start(configuration: configuration, environment: [:], logger: logger)
            return Setup(
                sandbox: sandbox, daemon: daemon, app: AppClient(baseURL: "http://127.0.0.1:\(daemon.port)"),
                directory: directory)
        } catch {
            await sandbox.shutdown(gracePeriod: .zero)
            throw error
        }
    }

    /// Sends `count` concurrent `GET /v1/feed` and returns their statuses.
    static func feedStatuses(_ app: AppClient, count: Int) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count { group.addTask { try await app.get("/v1/feed").status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func oneTokenIsFetchedAndSharedByConcurrentRequests() async throws {
        let setup = try await Self.start()
        #expect(try await Self.feedStatuses(setup.app, count: 24) == Array(repeating: 200, count: 24))
        #expect(setup.sandbox.tokenCounts.issued == 1)
        #expect(setup.sandbox.tokenCounts.rejected == 0)
        #expect(try await Self.feedStatuses(setup.app, count: 8) == Array(repeating: 200, count: 8))
        #expect(setup.sandbox.tokenCounts.issued == 1)
        await setup.stop()
    }

    @Test func anExpiredTokenIsRenewedOnceForManyRequests() async throws {
        let setup = try await Self.start(lifetime: .seconds(3))
        #expect(try await Self.feedStatuses(setup.app, count: 10) == Array(repeating: 200, count: 10))
        #expect(setup.sandbox.tokenCounts.issued == 1)
        try await Task.sleep(for: .milliseconds(3300))
        #expect(try await Self.feedStatuses(setup.app, count: 10) == Array(repeating: 200, count: 10))
        let issued = setup.sandbox.tokenCounts.issued
        // One renewal after the expiry; a second only if the run outlived the new token too.
        #expect(issued >= 2 && issued <= 3, "issued \(issued)")
        await setup.stop()
    }

    @Test func aRevokedTokenIsRenewedOnceAndTheRequestsReplayed() async throws {
        let setup = try await Self.start()
        #expect(try await setup.app.get("/v1/feed").status == 200)
        setup.sandbox.revokeAccessTokens()
        #expect(try await Self.feedStatuses(setup.app, count: 12) == Array(repeating: 200, count: 12))
        #expect(setup.sandbox.tokenCounts.issued == 2, "one renewal shared by every request that got a 401")
        #expect((1...12).contains(setup.sandbox.tokenCounts.rejected))
        await setup.stop()
    }

    @Test func aFailingTokenEndpointGivesAClearProblemAndNoLoop() async throws {
        let setup = try await Self.start()
        #expect(try await setup.app.get("/v1/feed").status == 200)
        try setup.sandbox.setTokenEndpointFaults(FaultSettings(errorRate: 1))
        setup.sandbox.revokeAccessTokens()
        let before = setup.sandbox.tokenCounts.requests
        let statuses = try await Self.feedStatuses(setup.app, count: 6)
        #expect(statuses == Array(repeating: 502, count: 6))
        let failed = try await setup.app.get("/v1/feed")
        #expect(failed.status == 502)
        #expect(failed.json?["module"] as? String == "FeedModule")
        #expect((failed.json?["detail"] as? String)?.contains("access token") == true)
        let asked = setup.sandbox.tokenCounts.requests - before
        #expect((1...7).contains(asked), "at most one token request per app request, got \(asked)")
        // Other modules are untouched; the feed recovers with the endpoint.
        #expect(try await setup.app.get("/v1/me").status == 200)
        try setup.sandbox.setTokenEndpointFaults(.none)
        #expect(try await setup.app.get("/v1/feed").status == 200)
        await setup.stop()
    }

    /// Neither the client secret nor an access token reaches a log line (debug included) or an
    /// answer, in any spelling, whether the token endpoint works or fails.
    @Test func noSecretOrTokenReachesTheLogOrAnAnswer() async throws {
        let log = InMemoryLogHandler()
        let secret = "client-secret-\(UUID())"
        let setup = try await Self.start(secret: secret, log: log)
        var answers: [String] = []
        answers.append(try await setup.app.get("/v1/feed").text)
        setup.sandbox.revokeAccessTokens()
        answers.append(try await setup.app.get("/v1/home").text)
        try setup.sandbox.setTokenEndpointFaults(FaultSettings(errorRate: 1))
        setup.sandbox.revokeAccessTokens()
        answers.append(try await setup.app.get("/v1/feed").text)
        await setup.stop()
        #expect(setup.sandbox.tokenCounts.issued == 2)
        let output = log.renderedLines.joined(separator: "\n")
        #expect(output.contains("\"level\":\"debug\""), "debug lines were written")
        let basic = Data("\(Self.clientID):\(secret)".utf8).base64EncodedString()
        // Issued tokens start with `sbx_`; the secret is checked raw, in the Basic field, and encoded.
        for spelling in [secret, String(basic.prefix(24)), Data(secret.utf8).base64EncodedString(), "sbx_"] {
            #expect(!output.contains(spelling), "\(spelling) in the log")
            #expect(!answers.contains { $0.contains(spelling) }, "\(spelling) in an answer")
        }
    }

    @Test func credentialSettingsAreValidatedAndSecretsRead() throws {
        var configuration = DaemonConfiguration()
        configuration.modules["FeedModule"] = .init()
        configuration.modules["FeedModule"]?.credentials = ModuleCredentials(
            tokenURL: "ftp://auth", clientID: "", renewBeforeSeconds: -1)
        let problems = ConfigurationCheck.problems(in: configuration, environment: [:])
        #expect(problems.contains { $0.hasPrefix("modules.FeedModule.credentials.tokenURL") })
        #expect(problems.contains("modules.FeedModule.credentials.clientID must not be empty"))
        #expect(problems.contains { $0.contains("exactly one of clientSecretFile and clientSecretEnvironment") })
        #expect(problems.contains { $0.contains("renewBeforeSeconds") })

        configuration.modules["FeedModule"]?.credentials = ModuleCredentials(
            tokenURL: "https://auth.example/token", clientID: "c", clientSecretEnvironment: "FEED_SECRET")
        #expect(
            ConfigurationCheck.problems(in: configuration, environment: [:]) == [
                "modules.FeedModule.credentials.clientSecretEnvironment: the environment variable FEED_SECRET is not set"
            ])
        #expect(ConfigurationCheck.problems(in: configuration, environment: ["FEED_SECRET": "hunter2"]).isEmpty)
        let missing = try #require(throws: ConfigurationProblems.self) {
            try CredentialMiddlewares(configuration: configuration, environment: [:])
        }
        #expect(
            missing.problems == [
                "modules.FeedModule.credentials.clientSecretEnvironment: the environment variable FEED_SECRET is not set"
            ])
        let made = try CredentialMiddlewares(configuration: configuration, environment: ["FEED_SECRET": "hunter2"])
        #expect(made.modules == ["FeedModule"])

        let json =
            #"{"modules": {"FeedModule": {"credentials": {"tokenURL": "https://a/t", "clientID": "c", "clientSecretFile": "f", "secret": "x"}}}}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DaemonConfiguration.self, from: Data(json.utf8))
        }
    }
}
