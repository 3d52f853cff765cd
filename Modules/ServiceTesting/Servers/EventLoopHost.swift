public import EventLoops

/// An event loop for tests of transports that run on their caller's loop: build the transport
/// with ``loops``, and a call made in ``run(_:)`` runs on that loop's thread, as an HTTP
/// server's request handler would.
///
/// ```swift
/// let transport = CurlTransport(eventLoops: EventLoopHost.loops)
/// let onLoop = try await EventLoopHost.run { EventLoopHost.loops.loopOfCaller != nil }  // true
/// ```
public enum EventLoopHost {
    /// One loop (thread `host-0`) shared by the tests of the process; never stopped.
    public static let loops: EventLoopGroup = {
        do {
            return try EventLoopGroup(loopCount: 1, name: "host")
        } catch {
            fatalError("the tests' event loop could not start: \(error)")
        }
    }()

    /// Runs `body` on the loop of ``loops``: it and its async hops run there, as a request
    /// handler's do.
    public static func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await run(on: loops.loops[0], body)
    }

    /// Runs `body` on `loop`'s thread: it and its async hops run there.
    public static func run<T: Sendable>(on loop: EventLoop, _ body: @Sendable () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(loop) { try await body() }
    }
}
