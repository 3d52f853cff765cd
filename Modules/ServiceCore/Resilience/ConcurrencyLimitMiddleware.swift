public import HTTPTypes
import Synchronization

/// A bulkhead: at most ``limit`` calls of one module in flight; past it a call fails at once with
/// a ``ServiceError/Code-swift.struct/overloaded`` error instead of queueing without bound.
///
/// One instance per module, shared by its calls (``ResilienceStack`` makes it).
public final class ConcurrencyLimitMiddleware: Middleware {
    /// The most calls in flight.
    public let limit: Int
    /// What the rejected caller is told to wait before trying again.
    public let retryAfter: Duration
    private let inFlightCount = Atomic<Int>(0)

    /// Creates the limit.
    /// - Parameters:
    ///   - limit: The most calls in flight, at least 1.
    ///   - retryAfter: The wait suggested to rejected callers; 1 s by default.
    public init(limit: Int, retryAfter: Duration = .seconds(1)) {
        self.limit = max(1, limit)
        self.retryAfter = retryAfter
    }

    /// The calls in flight now, for `/metrics`.
    public var inFlight: Int { inFlightCount.load(ordering: .relaxed) }

    /// Sends the request if a slot is free, else throws at once.
    public func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        let count = inFlightCount.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        defer { inFlightCount.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        guard count <= limit else {
            let rejection = ResilienceRejection(
                module: context.module, reason: .concurrencyLimit, retryAfter: retryAfter)
            throw ServiceError(
                code: .overloaded,
                module: context.module,
                operation: context.operation,
                message: "\(context.module) already has \(limit) calls in flight, its limit; not sent",
                request: request,
                underlying: rejection
            )
        }
        return try await next(request, context)
    }
}
