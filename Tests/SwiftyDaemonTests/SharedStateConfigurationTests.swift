import Foundation
import RedisClient
import ServiceTesting
import Testing

@testable import SwiftyDaemon

/// `sharedState`: memory by default; the file, then `SWIFTY_*` variables; `--check-config` names
/// each bad field and never shows the password.
@Suite(.timeLimit(.minutes(2)))
struct SharedStateConfigurationTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-state-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theDefaultIsMemoryAndPasses() throws {
        let configuration = DaemonConfiguration()
        #expect(configuration.sharedState.store == "memory")
        #expect(!configuration.sharedState.usesRedis)
        #expect(configuration.sharedState.problems(environment: [:]).isEmpty)
    }

    @Test func theHelpListsTheVariables() {
        for name in [
            "SWIFTY_STATE_STORE", "SWIFTY_REDIS_URL", "SWIFTY_REDIS_USERNAME", "SWIFTY_REDIS_PASSWORD_FILE",
            "SWIFTY_REDIS_COMMAND_TIMEOUT_MS", "SWIFTY_REDIS_KEY_PREFIX",
        ] {
            #expect(DaemonArguments.usage.contains(name), "\(name)")
        }
    }

    @Test func theFileThenTheEnvironmentSetTheStore() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let password = directory.appendingPathComponent("redis.password")
        try Data("s3cret-pass\n".utf8).write(to: password)
        let file = directory.appendingPathComponent("config.json")
        try Data(
            #"""
            {"sharedState": {"store": "redis", "redis": {"url": "redis://10.1.2.3:6380/2", "keyPrefix": "team:",
              "commandTimeoutMilliseconds": 250}}}
            """#.utf8
        ).write(to: file)
        var arguments = DaemonArguments()
        arguments.configFile = file.path
        let fromFile = try DaemonConfiguration.load(arguments: arguments, environment: [:])
        #expect(fromFile.sharedState.store == "redis")
        #expect(fromFile.sharedState.redis.url == "redis://10.1.2.3:6380/2")
        #expect(fromFile.sharedState.redis.keyPrefix == "team:")
        let client = try fromFile.sharedState.redisConfiguration(environment: [:])
        #expect(client.endpoint == .tcp(host: "10.1.2.3", port: 6380))
        #expect(client.database == 2)
        #expect(client.commandTimeout == .milliseconds(250))
        #expect(client.credentials == nil)

        let overridden = try DaemonConfiguration.load(
            arguments: arguments,
            environment: [
                "SWIFTY_REDIS_URL": "unix:///run/redis/redis.sock?db=3", "SWIFTY_REDIS_PASSWORD_FILE": "redis.password",
                "SWIFTY_REDIS_USERNAME": "swiftyd", "CREDENTIALS_DIRECTORY": directory.path,
                "SWIFTY_REDIS_COMMAND_TIMEOUT_MS": "900",
            ])
        let withPassword = try overridden.sharedState.redisConfiguration(
            environment: ["CREDENTIALS_DIRECTORY": directory.path])
        #expect(withPassword.endpoint == .unixSocket(path: "/run/redis/redis.sock"))
        #expect(withPassword.database == 3)
        #expect(withPassword.commandTimeout == .milliseconds(900))
        #expect(withPassword.credentials?.username == "swiftyd")
        #expect(withPassword.credentials?.description.contains("s3cret") == false)

        let memory = try DaemonConfiguration.load(arguments: arguments, environment: ["SWIFTY_STATE_STORE": "memory"])
        #expect(memory.sharedState.store == "memory")
        #expect(throws: DaemonConfiguration.LoadError.self) {
            try DaemonConfiguration.load(
                arguments: arguments, environment: ["SWIFTY_REDIS_COMMAND_TIMEOUT_MS": "soon"])
        }
    }

    @Test func unknownFieldsInTheSectionAreRefused() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("config.json")
        try Data(#"{"sharedState": {"store": "redis", "redis": {"password": "x"}}}"#.utf8).write(to: file)
        var arguments = DaemonArguments()
        arguments.configFile = file.path
        #expect {
            try DaemonConfiguration.load(arguments: arguments, environment: [:])
        } throws: { error in
            "\(error)".contains("password") && "\(error)".contains("passwordFile")
        }
    }

    @Test func everyBadFieldIsNamed() throws {
        var configuration = DaemonConfiguration()
        configuration.sharedState.store = "etcd"
        #expect(
            ConfigurationCheck.problems(in: configuration, environment: [:]) == [
                #"sharedState.store "etcd" is not one of memory, redis"#
            ])

        configuration.sharedState.store = "redis"
        configuration.sharedState.redis.url = "http://127.0.0.1:6379"
        configuration.sharedState.redis.passwordFile = "/nonexistent/redis.password"
        configuration.sharedState.redis.commandTimeoutMilliseconds = 0
        let problems = ConfigurationCheck.problems(in: configuration, environment: [:])
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("sharedState.redis.url:") && $0.contains("scheme") })
        #expect(problems.contains { $0.hasPrefix("sharedState.redis.passwordFile:") && $0.contains("cannot be read") })
        #expect(problems.contains { $0.hasPrefix("sharedState.redis.commandTimeoutMilliseconds 0") })
    }

    @Test func anEmptyPasswordFileAndAURLWithCredentialsAreRefused() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.password")
        try Data().write(to: empty)
        var configuration = DaemonConfiguration()
        configuration.sharedState.store = "redis"
        configuration.sharedState.redis.url = "redis://user:hunter2@127.0.0.1:6379"
        configuration.sharedState.redis.passwordFile = empty.path
        let problems = ConfigurationCheck.problems(in: configuration, environment: [:])
        #expect(problems.contains { $0.hasPrefix("sharedState.redis.url:") && $0.contains("credentials") })
        #expect(problems.contains { $0.hasPrefix("sharedState.redis.passwordFile:") && $0.contains("empty") })
        #expect(!problems.joined().contains("hunter2"))
    }

    /// The built binary: each case exits 78 naming its field; a good Redis section passes, and
    /// the password is never printed.
    @Test(arguments: [
        (#"{"sharedState": {"store": "etcd"}}"#, "sharedState.store"),
        (#"{"sharedState": {"store": "redis", "redis": {"url": "redis://"}}}"#, "sharedState.redis.url"),
        (
            #"{"sharedState": {"store": "redis", "redis": {"passwordFile": "/nonexistent/redis.password"}}}"#,
            "sharedState.redis.passwordFile"
        ),
    ])
    func checkConfigExitsSeventyEightNamingTheField(json: String, field: String) async throws {
        let path = try DaemonProcess.configurationFile(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await DaemonProcessTests.run(["--config", path, "--check-config"])
        #expect(result.status == 78)
        #expect(result.output.contains("  - \(field)"), "\(result.output)")
    }

    @Test func checkConfigPassesAGoodRedisSectionWithoutShowingThePassword() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let password = directory.appendingPathComponent("redis.password")
        try Data("pw-7d1c0e55aa\n".utf8).write(to: password)
        let path = try DaemonProcess.configurationFile(
            #"{"sharedState": {"store": "redis", "redis": {"url": "redis://127.0.0.1:6379/1", "passwordFile": ""#
                + password.path + #""}}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let passing = try await DaemonProcessTests.run(["--config", path, "--check-config"])
        #expect(passing.status == 0, "\(passing.output)")
        #expect(!passing.output.contains("pw-7d1c0e55aa"))
    }
}
