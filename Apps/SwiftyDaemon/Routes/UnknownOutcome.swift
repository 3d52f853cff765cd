import HTTPTypes
import ServiceCore

/// Tells a failed upstream write whose effect may have happened from one that surely did not,
/// and answers the first kind with a problem that says so.
///
/// A write may have taken effect when the request could have reached the upstream and the
/// answer was lost: a timeout or deadline after sending, a connection closed or reset after
/// sending, a 5xx answer, an answer that could not be read, a resend refused as a replay of the
/// first copy. A refused connection, a call the
/// daemon never sent (open breaker, concurrency limit, credentials), the upstream's 4xx answers
/// and its 503 answers (by the upstream contract, a 503 refuses the request before carrying it
/// out: a store or replay store that cannot be reached, an overload) are known outcomes and keep
/// their usual problem.
enum UnknownOutcome {
    /// The `code` member of the problem.
    static let code = "payment_outcome_unknown"

    /// Whether the write that failed with `error` may have taken effect upstream.
    static func isUnknown(_ error: any Error) -> Bool {
        guard let error = error as? ServiceError else { return false }
        switch error.code {
        case .timeout, .decoding:
            return true
        case .deadlineExceeded:
            // Thrown before the first attempt when too little time is left: nothing was sent.
            return error.attempts > 0
        case .transport:
            let transport = (error.underlying as? TransportError)?.code
            return transport != .connectionFailed && transport != .invalidRequest && transport != .shutDown
        case .unacceptableStatus:
            let status = error.response?.status ?? 0
            // A resend of the very signed request refused as a replay: its first copy reached the
            // upstream, and what became of it is unknown.
            let replayed = status == 401 && error.envelope(as: ProblemDetails.self)?.code == "signature_replayed"
            return (status >= 500 && status != 503) || replayed
        default:
            return false
        }
    }

    /// The answer for a write whose outcome is unknown: 504 when the upstream did not answer in
    /// time, else 502; `Retry-After: 1`; a detail telling the client to retry with the same key.
    static func problem(for error: any Error, idempotencyKey: String) -> AppProblemResponse {
        let service = error as? ServiceError
        let module = service?.module ?? "PaymentModule"
        let timedOut = service?.code == .timeout || service?.code == .deadlineExceeded
        var problem = AppProblem(
            timedOut ? 504 : 502,
            "The payment may or may not have been made: the \(module) upstream "
                + (timedOut ? "did not answer in time" : "gave no usable answer")
                + ". Retry with the same Idempotency-Key (\(idempotencyKey)) to get the payment's outcome; "
                + "it is charged at most once.",
            module: module
        )
        problem.details.code = code
        return AppProblemResponse(problem: problem, extraHeaders: [("Retry-After", "1")])
    }
}
