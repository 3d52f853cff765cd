import AppLogging
import CurlTransport
import FeedModule
import Foundation
import HTTPTypes
import PaymentModule
import RequestSigning
import SandboxUpstreams
import ServiceCore
import Testing
import URLSessionTransport
import UserModule

/// The transports the end-to-end tests run over.
enum TransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case urlSession
    case curl

    var description: String { rawValue }
}

/// Running sandbox upstreams with fresh keys, a real transport, and clients of the three
/// feature modules that sign with the sandbox keys.
struct SandboxFixture: Sendable {
    let sandbox: SandboxUpstreams
    let transport: any Transport
    let kind: TransportKind

    var keys: SandboxKeys { sandbox.keys }

    /// Starts the upstreams (127.0.0.1, ports 0) and a transport.
    static func start(
        _ kind: TransportKind = .curl,
        keys: SandboxKeys? = nil,
        configuration: SandboxUpstreams.Configuration = quietConfiguration()
    ) async throws -> SandboxFixture {
        let sandbox = try await SandboxUpstreams.start(
            keys: keys ?? SandboxKeys.generate(), configuration: configuration)
        let transport: any Transport =
            switch kind {
            case .urlSession: URLSessionTransport()
            case .curl: CurlTransport()
            }
        return SandboxFixture(sandbox: sandbox, transport: transport, kind: kind)
    }

    /// A configuration whose logger drops everything (tests check answers, not logs).
    static func quietConfiguration() -> SandboxUpstreams.Configuration {
        var configuration = SandboxUpstreams.Configuration()
        configuration.logger.logLevel = .critical
        return configuration
    }

    /// Stops the transport and the upstreams.
    func shutdown() async {
        if let curl = transport as? CurlTransport { await curl.shutdown() }
        if let session = transport as? URLSessionTransport { session.shutdown() }
        await sandbox.shutdown(gracePeriod: .seconds(1))
    }

    /// The middlewares of a client: `before`, the signer with `key` (the service's own unless
    /// given), then `after` (between the signer and the transport).
    func middlewares(
        for service: SandboxService,
        key: SigningKey? = nil,
        signer configuration: RequestSigner.Configuration = .init(),
        clock: @escaping @Sendable () -> Date = { Date() },
        before: [any Middleware] = [],
        after: [any Middleware] = []
    ) throws -> [any Middleware] {
        let signer = try RequestSigner(
            key: key ?? keys[service].signingKey, configuration: configuration, clock: clock)
        return before + [SigningMiddleware(signer: signer, checksModule: false)] + after
    }

    /// A user client signing with the user key (or `middlewares` when given).
    func users(_ middlewares: [any Middleware]? = nil, transport: (any Transport)? = nil) throws -> UserClient {
        try UserClient(
            domain: .sandbox(baseURL: sandbox.baseURLString(for: .user)), transport: transport ?? self.transport,
            middlewares: middlewares ?? self.middlewares(for: .user))
    }

    /// A feed client signing with the feed key (or `middlewares` when given).
    func feed(_ middlewares: [any Middleware]? = nil) throws -> FeedClient {
        try FeedClient(
            domain: .sandbox(baseURL: sandbox.baseURLString(for: .feed)), transport: transport,
            middlewares: middlewares ?? self.middlewares(for: .feed))
    }

    /// A payment client signing with the payment key (or `middlewares` when given).
    func payments(_ middlewares: [any Middleware]? = nil, transport: (any Transport)? = nil) throws -> PaymentClient {
        try PaymentClient(
            domain: .sandbox(baseURL: sandbox.baseURLString(for: .payment)), transport: transport ?? self.transport,
            middlewares: middlewares ?? self.middlewares(for: .payment))
    }

    /// Sends a request signed with the service's key straight through the transport.
    func sendSigned(
        _ method: HTTPMethod,
        _ target: String,
        to service: SandboxService,
        headers: HTTPHeaders = [:],
        body: Data? = nil
    ) async throws -> HTTPResponse {
        let url = try #require(URL(string: sandbox.baseURLString(for: service) + target))
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: .seconds(10))
        let signed = try RequestSigner(key: keys[service].signingKey).sign(request)
        return try await transport.send(signed)
    }
}

/// Runs `body` with started upstreams, shutting them down afterwards whatever happens.
func withSandbox<T>(
    _ kind: TransportKind = .curl,
    configuration: SandboxUpstreams.Configuration = SandboxFixture.quietConfiguration(),
    _ body: (SandboxFixture) async throws -> T
) async throws -> T {
    let fixture = try await SandboxFixture.start(kind, configuration: configuration)
    do {
        let result = try await body(fixture)
        await fixture.shutdown()
        return result
    } catch {
        await fixture.shutdown()
        throw error
    }
}
