/// Wraps the sending of a request: adds headers, signs, logs, retries.
///
/// Implement it for cross-cutting behaviour; use it by passing instances to ``ServiceClient``.
/// The client folds its middlewares around the transport with the first one outermost: for
/// `[logging, retry, signing]` a request passes logging, then retry, then signing, then the
/// transport. A middleware may call `next` zero times (answer from a cache), once, or several
/// times (retry, with `context.attempt` increased).
public protocol Middleware: Sendable {
    /// Handles one request.
    /// - Parameters:
    ///   - request: The request as built so far.
    ///   - context: Which module and case, the attempt, the request id, the logger.
    ///   - next: Sends the request through the rest of the chain.
    /// - Returns: The response to hand outwards.
    func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse
}
