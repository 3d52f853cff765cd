import Foundation
import HTTPServer
import Synchronization

/// Starts a server on 127.0.0.1 port 0, runs `body` with it, and shuts it down.
func withServer(
    _ configuration: HTTPServer.Configuration = HTTPServer.Configuration(threadCount: 2),
    handler: @escaping @Sendable (ServerRequest) async -> ServerResponse,
    _ body: (HTTPServer) async throws -> Void
) async throws {
    let server = HTTPServer(configuration: configuration, handler: handler)
    try server.start()
    do {
        try await body(server)
    } catch {
        await server.shutdown(gracePeriod: .seconds(1))
        throw error
    }
    await server.shutdown(gracePeriod: .seconds(1))
}

/// Answers with the method, raw target, path, query and body, as JSON.
@Sendable func echoHandler(_ request: ServerRequest) async -> ServerResponse {
    struct Echo: Encodable {
        var method: String
        var target: String
        var path: String
        var query: String?
        var body: String
        var remote: String
    }
    return .json(
        200,
        Echo(
            method: request.method,
            target: request.target,
            path: request.path,
            query: request.query,
            body: String(decoding: request.body, as: UTF8.self),
            remote: request.remoteAddress
        )
    )
}

/// The decoded form of ``echoHandler``'s answer.
struct EchoBody: Decodable {
    var method: String
    var target: String
    var path: String
    var query: String?
    var body: String
    var remote: String
}

/// Whether this machine has an IPv6 loopback to bind (some containers disable IPv6).
let ipv6LoopbackAvailable: Bool = {
    let server = HTTPServer(configuration: .init(host: "::1", threadCount: 1), handler: echoHandler)
    do {
        try server.start()
        return true
    } catch {
        return false
    }
}()

/// Waits until `flag` is set, checking every 5 ms for at most 20 s (a test never hangs on it).
func waitFor(_ flag: borrowing Atomic<Bool>) async {
    for _ in 0..<4000 where !flag.load(ordering: .relaxed) {
        try? await Task.sleep(for: .milliseconds(5))
    }
}

/// Waits until `condition` holds, checking every 5 ms for at most 4 s (a test never hangs on it).
func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<800 where !condition() {
        try await Task.sleep(for: .milliseconds(5))
    }
}
