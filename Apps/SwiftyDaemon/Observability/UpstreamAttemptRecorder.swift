import HTTPTypes
import ServiceCore

/// Counts each failed upstream attempt by its kind (``UpstreamFailureKind``): it sits inside the
/// retries, so a reset connection that a retry absorbed is still seen in `/metrics`.
struct UpstreamAttemptRecorder: Middleware {
    let metrics: Metrics

    func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        do {
            let response = try await next(request, context)
            if let kind = UpstreamFailureKind(status: response.status) {
                metrics.upstreamErrors.increment(LabelValues(context.module, kind.rawValue))
            }
            return response
        } catch {
            metrics.upstreamErrors.increment(LabelValues(context.module, UpstreamFailureKind(error).rawValue))
            throw error
        }
    }
}
