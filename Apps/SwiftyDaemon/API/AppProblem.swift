import Foundation
import HTTPServer
import HTTPTypes
import JSON
import ServiceCore

/// An RFC 9457 problem answer of the app API: a ``ProblemDetails`` with the request id
/// (`requestId`) and, for a failed module call, the module (`module`) as extension members.
struct AppProblem: Error, Sendable {
    /// The document sent.
    var details: ProblemDetails

    init(_ status: Int, _ detail: String, module: String? = nil) {
        var extensions: [ProblemDetails.Extension] = []
        if let requestID = RequestTrace.current?.requestID {
            extensions.append(.init(name: "requestId", value: requestID))
        }
        if let module { extensions.append(.init(name: "module", value: module)) }
        details = ProblemDetails(status: status, detail: detail, extensions: extensions)
    }

    /// The HTTP status.
    var status: Int { details.status ?? 500 }
    /// What went wrong, for a person.
    var detail: String { details.detail ?? "" }
    /// The module whose call failed, if any.
    var module: String? { details[extension: "module"] }

    var response: ServerResponse {
        let body = (try? StreamingJSONEncoder().encode(details)) ?? Data("{}".utf8)
        return ServerResponse(status: status, headers: ["Content-Type": "application/problem+json"], body: body)
    }

    /// The app-facing answer for a failed module call.
    ///
    /// Input the module refused is the client's mistake (400); an upstream's own 4xx answers
    /// about the resource (404, 409, 422, 402) pass through with its detail; everything else is
    /// the upstream's fault: a bad answer (5xx, 401/403 from a signature problem, undecodable
    /// body) is 502, a refused or reset connection 503, a timeout 504. The upstream's raw body
    /// is never copied.
    static func forUpstream(_ error: any Error) -> AppProblem {
        guard let error = error as? ServiceError else {
            return AppProblem(502, "An upstream call failed.")
        }
        let module = error.module
        switch error.code {
        case .invalidRequest:
            return AppProblem(400, error.message, module: module)
        case .timeout:
            return AppProblem(504, "The \(module) upstream did not answer in time.", module: module)
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
                let envelopeDetail = upstreamDetail(error)
                return AppProblem(
                    status == 400 ? 422 : status,
                    envelopeDetail ?? "The \(module) upstream answered \(status).",
                    module: module
                )
            }
            if status == 503 || status == 429 {
                return AppProblem(503, "The \(module) upstream is unavailable.", module: module)
            }
            return AppProblem(502, "The \(module) upstream gave a bad answer (HTTP \(status)).", module: module)
        case .credentialRefreshFailed:
            return AppProblem(502, "The \(module) upstream's access token could not be obtained.", module: module)
        default:
            return AppProblem(502, "The \(module) upstream gave an answer that could not be read.", module: module)
        }
    }

    /// The `detail` of the upstream's problem envelope, if it decoded as one.
    private static func upstreamDetail(_ error: ServiceError) -> String? {
        error.envelope(as: ProblemDetails.self)?.detail
    }
}
