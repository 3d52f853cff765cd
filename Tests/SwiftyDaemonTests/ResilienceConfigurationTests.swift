import Foundation
import ServiceCore
import Testing

@testable import SwiftyDaemon

/// The resilience settings in the configuration: every field from the file, the environment and
/// `--module`, the daemon-wide deadline and in-flight limit, and `--check-config` naming a bad
/// field.
struct ResilienceConfigurationTests {
    private func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftyd-\(UUID().uuidString).json")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A value per field, none of them its default, as the file, environment and flag spell it.
    static let values: [String: String] = [
        "retryAttempts": "5", "retryBaseDelayMilliseconds": "20", "retryMaxDelayMilliseconds": "900",
        "retryBudgetRatio": "0.5", "retryBudgetFloorPerSecond": "3", "breakerFailureRatio": "0.75",
        "breakerWindowMilliseconds": "4000", "breakerMinimumCalls": "7", "breakerOpenMilliseconds": "1500",
        "concurrencyLimit": "9", "singleFlight": "false",
    ]

    /// The settings ``values`` make.
    static var expected: ResilienceSettings {
        var settings = ResilienceSettings()
        settings.retry.maxAttempts = 5
        settings.retry.baseDelay = .milliseconds(20)
        settings.retry.maxDelay = .milliseconds(900)
        settings.retryBudgetRatio = 0.5
        settings.retryBudgetFloorPerSecond = 3
        settings.breaker.failureRatio = 0.75
        settings.breaker.window = .milliseconds(4000)
        settings.breaker.minimumCalls = 7
        settings.breaker.openDuration = .milliseconds(1500)
        settings.concurrencyLimit = 9
        settings.singleFlight = false
        return settings
    }

    @Test func theDefaultsAreOnAndValid() throws {
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(), environment: [:])
        #expect(configuration.requestDeadlineMilliseconds == 10_000)
        #expect(configuration.maxInFlight == 512)
        let settings = DaemonConfiguration.ModuleSettings().resilience
        #expect(settings == ResilienceSettings())
        #expect(settings.retry.maxAttempts > 1)
        #expect(settings.singleFlight)
        #expect(ConfigurationCheck.problems(in: configuration, environment: [:]).isEmpty)
    }

    @Test func everyFieldIsReadFromTheFile() throws {
        #expect(Set(Self.values.keys) == Set(DaemonConfiguration.ModuleSettings.resilienceFields))
        let members = Self.values.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
        let file = try write(
            #"{"requestDeadlineMilliseconds": 2500, "maxInFlight": 77, "modules": {"FeedModule": {"#
                + members + "}}}")
        let configuration = try DaemonConfiguration.load(
            arguments: try DaemonArguments(parsing: ["--config", file]), environment: [:])
        #expect(configuration.requestDeadlineMilliseconds == 2500)
        #expect(configuration.maxInFlight == 77)
        #expect(configuration.modules["FeedModule"]?.resilience == Self.expected)
        #expect(configuration.modules["UserModule"] == nil)
        #expect(ConfigurationCheck.problems(in: configuration, environment: [:]).isEmpty)
    }

    @Test func everyFieldIsReadFromTheEnvironment() throws {
        var environment = ["SWIFTY_REQUEST_DEADLINE_MS": "3000", "SWIFTY_MAX_IN_FLIGHT": "33"]
        for (field, value) in Self.values {
            environment["SWIFTY_PAYMENT_" + DaemonConfiguration.ModuleSettings.environmentName(of: field)] = value
        }
        #expect(environment["SWIFTY_PAYMENT_BREAKER_OPEN_MS"] == "1500")
        #expect(environment["SWIFTY_PAYMENT_RETRY_BUDGET_FLOOR_PER_SECOND"] == "3")
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(), environment: environment)
        #expect(configuration.requestDeadlineMilliseconds == 3000)
        #expect(configuration.maxInFlight == 33)
        #expect(configuration.modules["PaymentModule"]?.resilience == Self.expected)
    }

    @Test func everyFieldIsReadFromFlagsWhichWin() throws {
        var arguments = ["--request-deadline-ms", "4000", "--max-in-flight=44"]
        for (field, value) in Self.values {
            arguments += ["--module", "UserModule.\(field)=\(value)"]
        }
        let file = try write(#"{"modules": {"UserModule": {"retryAttempts": 2, "concurrencyLimit": 100}}}"#)
        arguments += ["--config", file]
        let configuration = try DaemonConfiguration.load(
            arguments: try DaemonArguments(parsing: arguments),
            environment: ["SWIFTY_USER_RETRY_ATTEMPTS": "4", "SWIFTY_MAX_IN_FLIGHT": "1"])
        #expect(configuration.requestDeadlineMilliseconds == 4000)
        #expect(configuration.maxInFlight == 44)
        #expect(configuration.modules["UserModule"]?.resilience == Self.expected)
    }

    @Test(arguments: [
        ["--max-in-flight", "0"], ["--request-deadline-ms", "soon"], ["--module", "UserModule"],
        ["--module", "retryAttempts=3"],
    ])
    func malformedFlagsAreUsageErrors(_ arguments: [String]) {
        #expect(throws: DaemonArguments.UsageError.self) { try DaemonArguments(parsing: arguments) }
    }

    @Test(arguments: [
        ("--module UserModule.retryAttempts=three", "is not a whole number"),
        ("--module UserModule.retries=3", "retries is not a resilience field"),
        ("--module NoModule.retryAttempts=3", "NoModule is not a registered module"),
        ("SWIFTY_FEED_SINGLE_FLIGHT=maybe", "SWIFTY_FEED_SINGLE_FLIGHT=\"maybe\" is not true or false"),
        ("SWIFTY_FEED_RETRY_BUDGET_RATIO=lots", "SWIFTY_FEED_RETRY_BUDGET_RATIO=\"lots\" is not a number"),
        ("SWIFTY_MAX_IN_FLIGHT=many", "SWIFTY_MAX_IN_FLIGHT=\"many\" is not a whole number"),
    ])
    func unreadableValuesNameTheFieldOrVariable(_ source: String, _ message: String) throws {
        var arguments = DaemonArguments()
        var environment: [String: String] = [:]
        if source.hasPrefix("--module ") {
            arguments.moduleSettings = [String(source.dropFirst("--module ".count))]
        } else {
            let parts = source.split(separator: "=", maxSplits: 1).map(String.init)
            environment[parts[0]] = parts[1]
        }
        do {
            _ = try DaemonConfiguration.load(arguments: arguments, environment: environment)
            Issue.record("\(source) was accepted")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func theCheckNamesEveryFieldOutOfRange() throws {
        var configuration = DaemonConfiguration()
        configuration.requestDeadlineMilliseconds = 0
        configuration.maxInFlight = -1
        var settings = DaemonConfiguration.ModuleSettings()
        settings.retryAttempts = 0
        settings.retryBaseDelayMilliseconds = 0
        settings.retryMaxDelayMilliseconds = 700_000
        settings.retryBudgetRatio = -0.1
        settings.retryBudgetFloorPerSecond = 20_000
        settings.breakerFailureRatio = 1.5
        settings.breakerWindowMilliseconds = 10
        settings.breakerMinimumCalls = 0
        settings.breakerOpenMilliseconds = 0
        settings.concurrencyLimit = 0
        configuration.modules["PaymentModule"] = settings
        let problems = ConfigurationCheck.problems(in: configuration, environment: [:])
        let named =
            ["requestDeadlineMilliseconds", "maxInFlight"]
            + DaemonConfiguration.ModuleSettings.resilienceFields.filter { $0 != "singleFlight" }.map {
                "modules.PaymentModule.\($0)"
            }
        for name in named {
            #expect(problems.contains { $0.hasPrefix(name + " ") }, "\(name) not in \(problems)")
        }
        #expect(problems.count == named.count)

        var inverted = DaemonConfiguration.ModuleSettings()
        inverted.retryBaseDelayMilliseconds = 500
        inverted.retryMaxDelayMilliseconds = 100
        configuration = DaemonConfiguration()
        configuration.modules["FeedModule"] = inverted
        #expect(
            ConfigurationCheck.problems(in: configuration, environment: [:]) == [
                "modules.FeedModule.retryMaxDelayMilliseconds is below retryBaseDelayMilliseconds (0.1 seconds < 0.5 seconds)"
            ])
    }

    @Test func checkConfigNamesTheBadFieldAndExits78() async throws {
        let file = try write(#"{"modules": {"PaymentModule": {"breakerFailureRatio": 2}}}"#)
        let result = try await DaemonProcessTests.run(["--config", file, "--check-config"])
        #expect(result.status == 78)
        #expect(
            result.output.contains("modules.PaymentModule.breakerFailureRatio 2.0 is not 0.01-1"), "\(result.output)")
        let flag = try await DaemonProcessTests.run(["--module", "FeedModule.concurrencyLimit=0", "--check-config"])
        #expect(flag.status == 78)
        #expect(flag.output.contains("modules.FeedModule.concurrencyLimit 0 is not 1-100000"), "\(flag.output)")
    }
}
