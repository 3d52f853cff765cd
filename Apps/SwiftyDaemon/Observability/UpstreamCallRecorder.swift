import HTTPTypes
import ServiceCore

/// Records every upstream attempt in the metrics and in the app request's trace: module,
/// operation, outcome (`2xx`-`5xx` class or an error kind) and duration.
struct UpstreamCallRecorder: Middleware {
    let metrics: Metrics

    func intercept(
        _ request: HTTPRequest,
        context: MiddlewareContext,
        next: @Sendable (HTTPRequest, MiddlewareContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: String
        defer {
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            metrics.upstreamCalls.increment([context.module, context.operation, outcome])
            metrics.upstreamDuration.observe([context.module], seconds)
            RequestTrace.current?.record(
                .init(
                    module: context.module,
                    operation: context.operation,
                    outcome: outcome,
                    milliseconds: Int((seconds * 1000).rounded())
                )
            )
        }
        do {
            let response = try await next(request, context)
            outcome = String(response.status)
            if response.status >= 500 { metrics.upstreamErrors.increment([context.module, "bad_answer"]) }
            return response
        } catch {
            let kind = UpstreamFailureKind(error)
            outcome = kind.rawValue
            metrics.upstreamErrors.increment([context.module, kind.rawValue])
            throw error
        }
    }
}

/// How an upstream call failed, as metrics and logs name it.
enum UpstreamFailureKind: String {
    case timeout
    case refused
    case reset
    case cancelled
    case tooLarge = "too_large"
    case other

    init(_ error: any Error) {
        switch (error as? TransportError)?.code {
        case .timedOut?: self = .timeout
        case .connectionFailed?: self = .refused
        case .connectionClosed?: self = .reset
        case .cancelled?: self = .cancelled
        case .responseTooLarge?: self = .tooLarge
        default: self = error is CancellationError ? .cancelled : .other
        }
    }
}
