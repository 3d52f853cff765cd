import Foundation
import HTTPTypes
import ServiceCore

/// Changes a request after it was signed (placed between the signer and the transport).
struct TamperingMiddleware: Middleware {
    let tamper: @Sendable (HTTPRequest) -> HTTPRequest

    func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        try await next(tamper(request), context)
    }
}

/// Sends every request twice, byte for byte, and returns the second answer: a replay.
struct ResendingTransport: Transport {
    let wrapped: any Transport

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        _ = try await wrapped.send(request)
        return try await wrapped.send(request)
    }
}
