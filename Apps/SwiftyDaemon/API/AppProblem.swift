import Foundation
import HTTPServer
import HTTPTypes
import JSON
import ServiceCore

/// An RFC 9457 problem answer of the app API: a ``ProblemDetails`` with the request id
/// (`requestId`) and, for a failed module call, the module (`module`) as extension members.
///
/// Every 503 and 429 carries `Retry-After` (``retryAfterSeconds``, 1 s unless known better), so
/// a client knows when trying again makes sense.
struct AppProblem: Error, Sendable {
    /// The document sent.
    var details: ProblemDetails
    /// The `Retry-After` of a 503 or 429, in seconds.
    var retryAfterSeconds: Int

    /// - Parameter code: The stable code (`docs/openapi.json` lists each status's); by default
    ///   the status's general one (``defaultCode(for:)``).
    init(_ status: Int, _ detail: String, code: String? = nil, module: String? = nil, retryAfterSeconds: Int = 1) {
        var extensions: [ProblemDetails.Extension] = []
        if let requestID = RequestTrace.current?.requestID {
            extensions.append(.init(name: "requestId", value: requestID))
        }
        if let module { extensions.append(.init(name: "module", value: module)) }
        details = ProblemDetails(
            status: status, detail: detail, code: code ?? Self.defaultCode(for: status), extensions: extensions)
        self.retryAfterSeconds = max(1, retryAfterSeconds)
    }

    /// The general code of a status, for problems without a more precise one.
    static func defaultCode(for status: Int) -> String {
        switch status {
        case 400: "invalid_request"
        case 401: "unauthorized"
        case 404: "not_found"
        case 409: "conflict"
        case 415: "unsupported_media_type"
        case 422: "unprocessable"
        case 429: "rate_limited"
        case 502: "upstream_bad_answer"
        case 503: "upstream_unavailable"
        case 504: "deadline_exceeded"
        default: status >= 500 ? "internal_error" : "invalid_request"
        }
    }

    /// The HTTP status.
    var status: Int { details.status ?? 500 }
    /// What went wrong, for a person.
    var detail: String { details.detail ?? "" }
    /// The module whose call failed, if any.
    var module: String? { details[extension: "module"] }

    var response: ServerResponse {
        var response = ServerResponse(
            status: status, headers: ["Content-Type": "application/problem+json"], body: Self.body(of: details))
        if status == 503 || status == 429 {
            response.headers.add(name: "Retry-After", value: String(retryAfterSeconds))
        }
        return response
    }

    /// The document's JSON: the bytes `StreamingJSONEncoder` makes of it (the members
    /// ``HTTPTypes/ProblemDetails`` encodes, in its order), written without the `Encodable`
    /// machinery, as every refused request (a flood without tokens) builds one.
    static func body(of details: ProblemDetails) -> Data {
        var object = JSONObjectWriter()
        object.member("type", details.type)
        if let title = details.title { object.member("title", title) }
        if let status = details.status { object.member("status", status) }
        if let detail = details.detail { object.member("detail", detail) }
        if let code = details.code { object.member("code", code) }
        for member in details.extensions { object.member(member.name, member.value) }
        return object.finish()
    }

    /// The answer when ``DaemonConfiguration/maxInFlight`` app requests are in flight already.
    static func shed(limit: Int) -> AppProblem {
        AppProblem(503, "The service is handling \(limit) requests, its limit; retry shortly.", code: "overloaded")
    }

    /// The app-facing answer for a failed module call.
    ///
    /// Input the module refused is the client's mistake (400); an upstream's own 4xx answers
    /// about the resource (404, 409, 422, 402) pass through with its detail; everything else is
    /// the upstream's fault: a bad answer (5xx, 401/403 from a signature problem, undecodable
    /// body) is 502, a refused or reset connection 503, a timeout or a spent request deadline 504.
    /// A module whose circuit breaker is open or whose concurrency limit is reached answers 503
    /// with the `Retry-After` it gave, naming the module. The upstream's raw body is never copied.
    static func forUpstream(_ error: any Error) -> AppProblem {
        guard let error = error as? ServiceError else {
            return AppProblem(502, "An upstream call failed.")
        }
        let module = error.module
        switch error.code {
        case .invalidRequest:
            return AppProblem(400, error.message, module: module)
        case .timeout:
            return AppProblem(
                504, "The \(module) upstream did not answer in time.", code: "upstream_timeout", module: module)
        case .deadlineExceeded:
            return AppProblem(
                504, "The request's deadline passed before the \(module) upstream answered.", module: module)
        case .circuitOpen:
            let rejection = error.underlying as? ResilienceRejection
            return AppProblem(
                503, "The \(module) upstream is failing; calls to it are paused (circuit open).", code: "circuit_open",
                module: module,
                retryAfterSeconds: rejection?.retryAfterSeconds ?? 1)
        case .overloaded:
            let rejection = error.underlying as? ResilienceRejection
            return AppProblem(
                503, "The \(module) upstream has as many calls in flight as it may take; retry shortly.",
                code: "overloaded", module: module, retryAfterSeconds: rejection?.retryAfterSeconds ?? 1)
        case .cancelled:
            return AppProblem(503, "The request was cancelled.", module: module)
        case .transport:
            let refused = (error.underlying as? TransportError)?.code == .connectionFailed
            return AppProblem(
                503,
                refused ? "The \(module) upstream refused the connection." : "The \(module) upstream is unreachable.",
                module: module
            )
        case .unacceptableStatus:
            let status = error.response?.status ?? 502
            if [400, 404, 409, 422, 402].contains(status) {
                // The upstream's own code says what about the resource (user_not_found, insufficient_funds).
                let envelope = error.envelope(as: ProblemDetails.self)
                return AppProblem(
                    status == 400 ? 422 : status,
                    envelope?.detail ?? "The \(module) upstream answered \(status).",
                    code: envelope?.code,
                    module: module
                )
            }
            if status == 503 || status == 429 {
                return AppProblem(
                    503, "The \(module) upstream is unavailable.", module: module,
                    retryAfterSeconds: upstreamRetryAfter(error))
            }
            return AppProblem(502, "The \(module) upstream gave a bad answer (HTTP \(status)).", module: module)
        case .credentialRefreshFailed:
            return AppProblem(
                502, "The \(module) upstream's access token could not be obtained.", code: "credentials_unavailable",
                module: module)
        default:
            return AppProblem(502, "The \(module) upstream gave an answer that could not be read.", module: module)
        }
    }

    /// The upstream's own `Retry-After` in whole seconds, capped at a minute; 1 when it gave none.
    private static func upstreamRetryAfter(_ error: ServiceError) -> Int {
        guard let field = error.response?.headers["Retry-After"],
            let wait = RetryAfter.parse(field, now: Date())
        else { return 1 }
        let (seconds, attoseconds) = wait.components
        return min(60, max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0)))
    }
}
