public import Foundation
public import HTTPServer

/// The project's ``HTTPServer/HTTPServer`` on 127.0.0.1 and an ephemeral port, for one test.
///
/// Use the scoped form so the server never outlives the test:
///
/// ```swift
/// try await withLoopbackServer(handler: { _ in .json(200, data: Data(#"{"id":"alice"}"#.utf8)) }) { server in
///     let client = try ServiceClient<UserService>(baseURL: server.baseURL, transport: CurlTransport())
///     // ...
/// }
/// ```
public final class LoopbackServer: Sendable {
    /// The running server.
    public let server: HTTPServer
    /// The port it listens on.
    public let port: Int

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The URL of `target` (a path with an optional query, already percent-encoded) on this server.
    public func url(_ target: String) -> URL {
        let slash = target.hasPrefix("/") ? "" : "/"
        return URL(string: "http://127.0.0.1:\(port)\(slash)\(target)") ?? baseURL
    }

    /// A configuration for tests: 127.0.0.1, port 0, two threads, 16 MiB bodies.
    public static var testConfiguration: HTTPServer.Configuration {
        HTTPServer.Configuration(host: "127.0.0.1", port: 0, threadCount: 2, maxBodyBytes: 16 << 20)
    }

    /// Starts a server that answers with `handler`.
    /// - Parameters:
    ///   - configuration: The server's settings; its host must be a loopback address.
    ///     ``testConfiguration`` unless given.
    ///   - handler: Answers each request.
    /// - Throws: ``TestServerError`` with code `serverFailed` when the server does not start.
    public init(
        configuration: HTTPServer.Configuration = LoopbackServer.testConfiguration,
        handler: @escaping @Sendable (ServerRequest) async -> ServerResponse
    ) throws {
        guard ["127.0.0.1", "localhost", "::1"].contains(configuration.host) else {
            throw TestServerError(.serverFailed, "a loopback server binds 127.0.0.1 or ::1, not \(configuration.host)")
        }
        server = HTTPServer(configuration: configuration, handler: handler)
        do {
            try server.start()
        } catch {
            throw TestServerError(.serverFailed, "the loopback HTTP server did not start: \(error)")
        }
        port = server.port
    }

    /// Stops the server, giving requests in flight up to `gracePeriod`.
    public func shutdown(gracePeriod: Duration = .seconds(1)) async {
        await server.shutdown(gracePeriod: gracePeriod)
    }
}

/// Starts a ``LoopbackServer`` answering with `handler`, runs `body` with it, and shuts it down
/// whether `body` returns or throws.
/// - Parameters:
///   - configuration: The server's settings; ``LoopbackServer/testConfiguration`` unless given.
///   - handler: Answers each request.
///   - body: The test.
/// - Returns: What `body` returns.
public func withLoopbackServer<T>(
    configuration: HTTPServer.Configuration = LoopbackServer.testConfiguration,
    handler: @escaping @Sendable (ServerRequest) async -> ServerResponse,
    _ body: (LoopbackServer) async throws -> T
) async throws -> T {
    let server = try LoopbackServer(configuration: configuration, handler: handler)
    let result: T
    do {
        result = try await body(server)
    } catch {
        await server.shutdown()
        throw error
    }
    await server.shutdown()
    return result
}

/// Starts a ``LoopbackServer`` answering through `router`; see ``withLoopbackServer(configuration:handler:_:)``.
public func withLoopbackServer<T>(
    configuration: HTTPServer.Configuration = LoopbackServer.testConfiguration,
    router: Router,
    _ body: (LoopbackServer) async throws -> T
) async throws -> T {
    try await withLoopbackServer(configuration: configuration, handler: router.handle, body)
}
