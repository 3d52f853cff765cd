import Foundation
import HTTPServer

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
