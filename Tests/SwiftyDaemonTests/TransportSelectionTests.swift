import AppLogging
import Foundation
import RequestSigning
import Testing

@testable import SwiftyDaemon

/// The `auto` transport: the loop-native HTTP/1.1 client for cleartext `http` upstreams,
/// libcurl for `https`; the others stay selectable per module.
@Suite(.timeLimit(.minutes(2)))
struct TransportSelectionTests {
    private static func binding(_ baseURL: String, _ transport: DaemonConfiguration.TransportKind) throws
        -> UpstreamBinding
    {
        let key = try SigningKey(id: "k1", tag: "UserModule", secret: Array(repeating: 7, count: 32))
        return UpstreamBinding(
            module: "UserModule", baseURL: baseURL, key: key, transport: transport, timeout: .seconds(1))
    }

    @Test func autoPicksHTTP1ForHTTPAndCurlForHTTPS() throws {
        #expect(try Self.binding("http://127.0.0.1:8081", .auto).transportInUse == .http1)
        #expect(try Self.binding("HTTP://users.internal", .auto).transportInUse == .http1)
        #expect(try Self.binding("https://users.example.com", .auto).transportInUse == .curl)
        // A transport named in the configuration is used as named.
        #expect(try Self.binding("http://127.0.0.1:8081", .curl).transportInUse == .curl)
        #expect(try Self.binding("https://users.example.com", .http1).transportInUse == .http1)
        #expect(try Self.binding("http://127.0.0.1:8081", .urlsession).transportInUse == .urlsession)
    }

    @Test func autoIsTheDefaultAndCanBeNamed() throws {
        let configuration = try DaemonConfiguration.load(
            arguments: DaemonArguments(), environment: ["SWIFTY_USER_TRANSPORT": "auto"])
        #expect(configuration.modules["UserModule"]?.transport == .auto)
        let error = #expect(throws: (any Error).self) {
            try DaemonConfiguration.load(arguments: DaemonArguments(), environment: ["SWIFTY_USER_TRANSPORT": "tcp"])
        }
        #expect("\(String(describing: error))".contains("auto, curl, urlsession, http1"))
    }

    @Test func theSandboxIsReachedOnTheHandlersOwnLoopsWithNoFallback() async throws {
        // Defaults: every module on `auto`, and the sandbox's upstreams are cleartext http.
        let daemon = try await UpstreamFailureTests.start()
        let app = AppClient(baseURL: "http://127.0.0.1:\(daemon.port)")
        for _ in 0..<3 {
            #expect(try await app.get("/v1/home").status == 200)
        }
        #expect(daemon.metrics.upstreamCalls.value(["UserModule", "profile", "200"]) >= 3)
        let metrics = daemon.metrics.render()
        // Every upstream call ran on the handler's loop over http1: nothing went to libcurl.
        for reason in ["https", "off_loop", "other_url", "user_info"] {
            #expect(
                metrics.contains("swiftyd_transport_fallbacks_total{transport=\"http1\",reason=\"\(reason)\"} 0"),
                "\(reason) in:\n\(metrics)")
        }
        await daemon.drain()
    }
}
