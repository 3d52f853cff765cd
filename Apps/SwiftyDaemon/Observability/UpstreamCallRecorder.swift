import HTTPTypes
import ServiceCore

/// Records every upstream call (outermost in the chain, so once per call however often it was
/// retried) in the metrics and in the app request's trace: module, operation, outcome (the
/// status or an error kind), attempts and duration.
///
/// A call answered by another caller's identical read (single-flight) shows 0 attempts. A call
/// refused before it was sent (circuit open, concurrency limit, deadline) is counted as an
/// upstream error of that kind here; failed attempts are counted by ``UpstreamAttemptRecorder``.
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
            let attempts = context.attempts?.value ?? 0
            let module = LabelValues(context.module)
            metrics.upstreamCalls.increment(LabelValues(context.module, context.operation, outcome))
            metrics.upstreamDuration.observe(module, seconds)
            if attempts > 0 { metrics.upstreamAttempts.increment(module, by: UInt64(attempts)) }
            if attempts > 1 { metrics.upstreamRetries.increment(module, by: UInt64(attempts - 1)) }
            RequestTrace.current?.record(
                .init(
                    module: context.module,
                    operation: context.operation,
                    outcome: outcome,
                    attempts: attempts,
                    milliseconds: Int((seconds * 1000).rounded())
                )
            )
        }
        do {
            let response = try await next(request, context)
            outcome = String(response.status)
            return response
        } catch {
            let kind = UpstreamFailureKind(error)
            outcome = kind.rawValue
            if kind.isRefusal { metrics.upstreamErrors.increment(LabelValues(context.module, kind.rawValue)) }
            throw error
        }
    }
}
