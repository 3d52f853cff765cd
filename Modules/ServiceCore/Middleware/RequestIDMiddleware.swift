public import HTTPTypes

/// Adds the logical request's id as a header (`X-Request-ID` by default), the same on every
/// attempt, so upstream logs can be joined with ours.
public struct RequestIDMiddleware: Middleware {
    private let headerName: String

    /// Creates the middleware.
    /// - Parameter headerName: The header to set.
    public init(headerName: String = "X-Request-ID") {
        self.headerName = headerName
    }

    /// Sets the header unless the request already has one, then calls `next`.
    public func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        guard !request.headers.contains(headerName) else { return try await next(request, context) }
        var request = request
        request.headers.add(name: headerName, value: context.requestID)
        return try await next(request, context)
    }
}
