import Foundation
import RequestSigning
import ServiceCore
import Testing

@testable import SwiftyDaemon

struct ConfigurationTests {
    private func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftyd-\(UUID().uuidString).json")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func defaultsAreTheSandboxOnLoopback() throws {
        let configuration = try DaemonConfiguration.load(arguments: DaemonArguments(), environment: [:])
        #expect(configuration.mode == .sandbox)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.adminHost == "127.0.0.1")
        #expect(configuration.adminPort == 9090)
        #expect(ConfigurationCheck.problems(in: configuration, environment: [:]).isEmpty)
    }

    @Test func precedenceIsDefaultsFileEnvironmentFlags() throws {
        let file = try write(
            #"{"port": 1000, "adminPort": 1001, "drainSeconds": 3, "modules": {"UserModule": {"baseURL": "https://file.example", "timeoutMilliseconds": 700}}}"#
        )
        let environment = [
            "SWIFTY_PORT": "2000", "SWIFTY_USER_BASE_URL": "https://env.example", "SWIFTY_FEED_TRANSPORT": "urlsession",
        ]
        let arguments = try DaemonArguments(parsing: ["--config", file, "--port", "3000"])
        let configuration = try DaemonConfiguration.load(arguments: arguments, environment: environment)
        #expect(configuration.port == 3000)  // flag beats environment beats file
        #expect(configuration.adminPort == 1001)  // file beats default
        #expect(configuration.drainSeconds == 3)
        #expect(configuration.maxBodyBytes == 1 << 20)  // default kept
        #expect(configuration.maxHeaderBytes == 8 << 10)
        #expect(configuration.modules["UserModule"]?.baseURL == "https://env.example")
        #expect(configuration.modules["UserModule"]?.timeoutMilliseconds == 700)
        #expect(configuration.modules["FeedModule"]?.transport == .urlsession)
    }

    @Test func theHTTP1TransportIsNamedInTheFileOrTheEnvironment() throws {
        let file = try write(#"{"modules": {"UserModule": {"transport": "http1"}}}"#)
        let arguments = try DaemonArguments(parsing: ["--config", file])
        let configuration = try DaemonConfiguration.load(
            arguments: arguments, environment: ["SWIFTY_PAYMENT_TRANSPORT": "http1"])
        #expect(configuration.modules["UserModule"]?.transport == .http1)
        #expect(configuration.modules["PaymentModule"]?.transport == .http1)
        #expect(configuration.modules["FeedModule"]?.transport == nil)  // curl
        #expect(throws: (any Error).self) {
            try DaemonConfiguration.load(
                arguments: try DaemonArguments(parsing: []), environment: ["SWIFTY_FEED_TRANSPORT": "http2"])
        }
    }

    @Test func configFileFromTheEnvironment() throws {
        let file = try write(#"{"adminPort": 1234}"#)
        let configuration = try DaemonConfiguration.load(
            arguments: DaemonArguments(), environment: ["SWIFTY_CONFIG": file])
        #expect(configuration.adminPort == 1234)
    }

    @Test(arguments: [
        (#"{"prot": 1}"#, "unknown field \"prot\""),
        (#"{"port": "eighty"}"#, "expected Int at \"port\""),
        (#"{"modules": {"UserModule": {"baseUrl": "x"}}}"#, "unknown field \"baseUrl\""),
        (#"{"mode": "production"}"#, "mode"),
        ("{not json", "not valid"),
    ])
    func malformedFilesAreLoadErrors(text: String, expected: String) throws {
        let file = try write(text)
        #expect {
            try DaemonConfiguration.load(arguments: DaemonArguments(parsing: ["--config", file]), environment: [:])
        } throws: { error in
            "\(error)".contains(expected) && "\(error)".contains(file)
        }
    }

    @Test func missingFileIsALoadError() {
        #expect {
            try DaemonConfiguration.load(
                arguments: DaemonArguments(parsing: ["--config", "/nonexistent/x.json"]), environment: [:])
        } throws: { error in
            "\(error)".contains("cannot read the configuration file /nonexistent/x.json")
        }
    }

    @Test(arguments: [
        (["SWIFTY_PORT": "x"], "SWIFTY_PORT"),
        (["SWIFTY_MODE": "prod"], "SWIFTY_MODE"),
        (["SWIFTY_PAYMENT_TRANSPORT": "nio"], "SWIFTY_PAYMENT_TRANSPORT"),
        (["SWIFTY_USER_TIMEOUT_MS": "soon"], "SWIFTY_USER_TIMEOUT_MS"),
    ])
    func malformedEnvironmentIsALoadError(environment: [String: String], name: String) {
        #expect {
            try DaemonConfiguration.load(arguments: DaemonArguments(), environment: environment)
        } throws: { error in
            "\(error)".contains(name)
        }
    }

    @Test func checkListsEveryProblem() throws {
        var configuration = DaemonConfiguration()
        configuration.mode = .live
        configuration.port = 70000
        configuration.logging.level = "loud"
        configuration.maxHeaderBytes = 100
        configuration.modules = [
            "UserModule": .init(baseURL: "ftp://users.example", keyFile: "/nonexistent/user.key"),
            "Ghost": .init(),
        ]
        let problems = ConfigurationCheck.problems(in: configuration, environment: [:])
        let text = problems.joined(separator: "\n")
        #expect(text.contains("port 70000"))
        #expect(text.contains("logging.level \"loud\""))
        #expect(text.contains("maxHeaderBytes 100 is not 1024-65536"))
        #expect(text.contains("modules.Ghost is not a registered module"))
        #expect(text.contains("modules.UserModule.baseURL"))
        #expect(text.contains("modules.FeedModule.baseURL is required in live mode"))
        #expect(text.contains("modules.PaymentModule.baseURL is required in live mode"))
        #expect(problems.count >= 7)
    }

    @Test func liveModeLoadsKeysFromTheCredentialsDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("creds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let secret = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        for name in ["user", "feed", "payment"] {
            try Data((secret + "\n").utf8).write(to: directory.appendingPathComponent("\(name).key"))
        }
        var configuration = DaemonConfiguration()
        configuration.mode = .live
        for (module, name) in [("UserModule", "user"), ("FeedModule", "feed"), ("PaymentModule", "payment")] {
            configuration.modules[module] = .init(baseURL: "https://\(name).example", keyFile: "\(name).key")
        }
        let environment = ["CREDENTIALS_DIRECTORY": directory.path]
        #expect(ConfigurationCheck.problems(in: configuration, environment: environment).isEmpty)
        let bindings = try UpstreamBinding.live(configuration, environment: environment)
        #expect(bindings["UserModule"]?.key.id == FeatureModuleRegistry.module(named: "UserModule")?.keyID)
        #expect(bindings["PaymentModule"]?.baseURL == "https://payment.example")
        #expect(!ConfigurationCheck.problems(in: configuration, environment: [:]).isEmpty)
    }

    @Test func environmentPrefixes() {
        #expect(DaemonConfiguration.environmentPrefix(module: "UserModule") == "SWIFTY_USER_")
        #expect(DaemonConfiguration.environmentPrefix(module: "GiftCardModule") == "SWIFTY_GIFT_CARD_")
    }
}
