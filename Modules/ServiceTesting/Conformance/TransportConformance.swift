public import ServiceCore

/// One suite of checks every ``ServiceCore/Transport`` must pass, against the project's own
/// HTTP server (and a scripted raw socket server for misbehaving peers) on 127.0.0.1.
///
/// Run it from your own test target, one test per check:
///
/// ```swift
/// import ServiceTesting
/// import Testing
///
/// struct MyTransportConformanceTests {
///     @Test(arguments: TransportConformance.Check.allCases)
///     func conforms(_ check: TransportConformance.Check) async throws {
///         let transport = MyTransport()
///         try await TransportConformance(transport: transport).run(check)
///     }
/// }
/// ```
///
/// A check that fails throws a ``ConformanceFailure`` saying what was expected and what the
/// transport did. Every request the suite sends has a timeout, so no check can hang.
public struct TransportConformance: Sendable {
    /// Sizes and timeouts of the suite.
    public struct Options: Sendable {
        /// The timeout of requests that should succeed. Default 30 s.
        public var requestTimeout: Duration
        /// The body size of ``Check/largeBodies``. Default 8 MiB.
        public var largeBodySize: Int
        /// The number of tasks in ``Check/concurrentRequests``. Default 200.
        public var concurrency: Int
        /// The timeout given in ``Check/timeout``. Default 300 ms.
        public var shortTimeout: Duration
        /// How long the server takes to answer in ``Check/timeout`` and ``Check/cancellation`` (at
        /// most 20 s); the transport must give up before three quarters of it. Default 16 s, which
        /// leaves room for a machine so busy that the test runner's threads wait seconds for a core.
        public var slowAnswer: Duration

        /// Creates options; every parameter has the default documented on its property.
        public init(
            requestTimeout: Duration = .seconds(30),
            largeBodySize: Int = 8 << 20,
            concurrency: Int = 200,
            shortTimeout: Duration = .milliseconds(300),
            slowAnswer: Duration = .seconds(16)
        ) {
            self.requestTimeout = requestTimeout
            self.largeBodySize = largeBodySize
            self.concurrency = concurrency
            self.shortTimeout = shortTimeout
            self.slowAnswer = slowAnswer
        }
    }

    /// The transport under test.
    public let transport: any Transport
    /// Sizes and timeouts.
    public let options: Options

    /// Creates the suite for `transport`.
    /// - Parameters:
    ///   - transport: The transport under test. Its response size limit must allow
    ///     ``Options/largeBodySize``, and it must not follow redirects.
    ///   - options: Sizes and timeouts; the defaults are what the project's transports pass.
    public init(transport: any Transport, options: Options = Options()) {
        self.transport = transport
        self.options = options
    }

    /// Runs one check.
    /// - Throws: ``ConformanceFailure`` when the transport does not behave as the check expects;
    ///   ``TestServerError`` when a test server cannot start.
    public func run(_ check: Check) async throws {
        switch check {
        case .methods: try await checkMethods()
        case .pathAndQuery: try await checkPathAndQuery()
        case .requestHeaders: try await checkRequestHeaders()
        case .textBody: try await checkTextBody()
        case .binaryBody: try await checkBinaryBody()
        case .largeBodies: try await checkLargeBodies()
        case .repeatedResponseHeaders: try await checkRepeatedResponseHeaders()
        case .statusCodes: try await checkStatusCodes()
        case .interimResponses: try await checkInterimResponses()
        case .emptyBodies: try await checkEmptyBodies()
        case .head: try await checkHead()
        case .timeout: try await checkTimeout()
        case .cancellation: try await checkCancellation()
        case .connectionClosedMidAnswer: try await checkConnectionClosedMidAnswer()
        case .connectionRefused: try await checkConnectionRefused()
        case .concurrentRequests: try await checkConcurrentRequests()
        }
    }

    /// Runs `checks` in order and returns the failures (empty when the transport passed them all).
    public func runAll(_ checks: [Check] = Check.allCases) async -> [any Error] {
        var failures: [any Error] = []
        for check in checks {
            do {
                try await run(check)
            } catch {
                failures.append(error)
            }
        }
        return failures
    }
}
