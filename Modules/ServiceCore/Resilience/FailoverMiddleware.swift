public import AppLogging
import Foundation
public import HTTPTypes

/// Sends each call to the first healthy host of a module's domain, with a ``CircuitBreaker``
/// per host; a connection failure moves the call to the next healthy host in the listed order.
///
/// The first base URL is the client's own: requests built under it are rewritten to the chosen
/// host's base URL; requests under another base URL (a case that overrides it) pass through
/// untouched. Counted as failures: transport failures and 5xx answers; 4xx answers show a
/// healthy host. When every host's breaker is open the call fails at once with a
/// ``ServiceError/Code-swift.struct/circuitOpen`` error whose underlying
/// ``ResilienceRejection`` says when to try again.
public struct FailoverMiddleware: Middleware {
    /// The base URLs, in order of preference, without trailing `/`.
    public let baseURLs: [String]
    /// One breaker per base URL, in the same order.
    public let breakers: [CircuitBreaker]

    /// Creates the middleware.
    /// - Parameters:
    ///   - module: The module, for errors and logs.
    ///   - baseURLs: The domain's base URLs, the client's own first; at least one.
    ///   - settings: The breakers' thresholds.
    ///   - clock: The time source.
    ///   - logger: Where breaker transitions are logged.
    public init(
        module: String,
        baseURLs: [String],
        settings: CircuitBreakerSettings = .init(),
        clock: any ResilienceClock = MonotonicClock(),
        logger: Logger
    ) {
        let trimmed = baseURLs.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.baseURLs = trimmed
        self.breakers = trimmed.map {
            CircuitBreaker(module: module, host: $0, settings: settings, clock: clock, logger: logger)
        }
    }

    /// Each host's breaker state, for `/metrics`.
    public var states: [(host: String, state: CircuitBreaker.State)] {
        breakers.map { ($0.host, $0.state) }
    }

    /// Sends the request to the first host whose breaker lets it through.
    public func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        guard let primary = baseURLs.first, Self.isUnder(request.urlString, base: primary) else {
            return try await next(request, context)
        }
        var soonest: Duration?
        var lastFailure: (any Error)?
        for (index, breaker) in breakers.enumerated() {
            let probe: Bool
            switch breaker.acquire() {
            case .rejected(let retryAfter):
                soonest = min(soonest ?? retryAfter, retryAfter)
                continue
            case .allowed(let isProbe):
                probe = isProbe
            }
            var attempt = request
            if index > 0, let url = URL(string: baseURLs[index] + request.urlString.dropFirst(primary.count)) {
                attempt.url = url
            }
            do {
                let response = try await next(attempt, context)
                breaker.record(success: response.status < 500, probe: probe)
                return response
            } catch let error as TransportError where error.code == .cancelled {
                breaker.release(probe: probe)
                throw error
            } catch is CancellationError {
                breaker.release(probe: probe)
                throw CancellationError()
            } catch let error as TransportError {
                breaker.record(success: false, probe: probe)
                guard error.code == .connectionFailed else { throw error }
                lastFailure = error
            } catch {
                breaker.release(probe: probe)
                throw error
            }
        }
        if let lastFailure { throw lastFailure }
        let rejection = ResilienceRejection(
            module: context.module, reason: .circuitOpen, retryAfter: soonest ?? .seconds(1))
        throw ServiceError(
            code: .circuitOpen,
            module: context.module,
            operation: context.operation,
            message:
                "every host of \(context.module)'s domain is failing; not sent, retry after \(rejection.retryAfterSeconds) s",
            request: request,
            attempts: context.attempt - 1,
            underlying: rejection
        )
    }

    /// Whether `url` is `base` or below it.
    private static func isUnder(_ url: String, base: String) -> Bool {
        guard url.hasPrefix(base) else { return false }
        let rest = url.dropFirst(base.count)
        return rest.isEmpty || rest.first == "/" || rest.first == "?"
    }
}
