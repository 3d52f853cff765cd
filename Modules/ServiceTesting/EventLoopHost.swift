public import HTTPServer

/// A one-thread HTTP server on loopback that answers nothing itself: a call made through it runs
/// on that thread's event loop, as a request handler's call would (``ServiceCore/IOEventLoops``
/// finds the loop there).
///
/// ```swift
/// let onLoop = try await EventLoopHost.run { IOEventLoops.current != nil }  // true
/// ```
public enum EventLoopHost {
    /// The host's configuration: 127.0.0.1, a free port, one network thread.
    public static let configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threadCount: 1)
    /// The host's handler: 404 for anything.
    public static let handler: @Sendable (ServerRequest) async -> ServerResponse = { _ in .text(404, "") }

    /// Runs `body` with a started host (call its `onNetworkThread`), stopped afterwards.
    public static func with<T: Sendable>(_ body: @Sendable (HTTPServer) async throws -> T) async throws -> T {
        try await withLoopbackServer(configuration: configuration, handler: handler) { host in
            try await body(host.server)
        }
    }

    /// Runs `body` on the network thread of a host started for it, and stops the host.
    public static func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await with { server in try await server.onNetworkThread { try await body() } }
    }
}
