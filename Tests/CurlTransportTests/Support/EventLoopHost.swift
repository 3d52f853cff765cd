import HTTPServer
import ServiceTesting

/// A one-thread HTTP server on loopback that answers nothing itself: a call made through its
/// `onNetworkThread` runs on that thread's event loop, as a handler's call would.
enum EventLoopHost {
    /// The host's configuration: one network thread.
    static let configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threadCount: 1)
    /// The host's handler: 404 for anything.
    static let handler: @Sendable (ServerRequest) async -> ServerResponse = { _ in .text(404, "") }

    /// Runs `body` with a host, stopped afterwards.
    static func with<T: Sendable>(_ body: @Sendable (HTTPServer) async throws -> T) async throws -> T {
        try await withLoopbackServer(configuration: configuration, handler: handler) { host in
            try await body(host.server)
        }
    }
}
