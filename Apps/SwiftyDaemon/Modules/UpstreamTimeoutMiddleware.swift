import HTTPTypes
import ServiceCore

/// Caps each attempt's timeout at the module's configured one; it sits inside the retries, so a
/// retried attempt (whose timeout the retry middleware sets from the case and the deadline) is
/// capped too.
struct UpstreamTimeoutMiddleware: Middleware {
    let timeout: Duration

    func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var request = request
        request.timeout = min(request.timeout ?? timeout, timeout)
        return try await next(request, context)
    }
}
