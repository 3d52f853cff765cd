import HTTPTypes

/// The server's own answer to a request it will not hand to the handler (bad framing, a limit,
/// a deadline), after which the connection closes.
struct Refusal: Error, Equatable {
    /// Why the server refused: a closed set, so that it can label a metric.
    enum Reason: String, Sendable, CaseIterable {
        case malformed
        case unsupportedVersion
        case unknownMethod
        case unsupportedCoding
        case targetTooLong
        case headersTooLarge
        case tooManyParameters
        case bodyTooLarge
        case expectationFailed
        case headTimeout
        case bodyTooSlow
        case connectionLimit
        case addressLimit

        /// The `code` of the problem answered for this reason (`snake_case`, stable).
        var code: String {
            switch self {
            case .malformed: "malformed_request"
            case .unsupportedVersion: "version_not_supported"
            case .unknownMethod: "method_not_implemented"
            case .unsupportedCoding: "coding_not_implemented"
            case .targetTooLong: "target_too_long"
            case .headersTooLarge: "headers_too_large"
            case .tooManyParameters: "too_many_parameters"
            case .bodyTooLarge: "body_too_large"
            case .expectationFailed: "expectation_failed"
            case .headTimeout: "request_timeout"
            case .bodyTooSlow: "body_too_slow"
            case .connectionLimit: "connection_limit"
            case .addressLimit: "address_limit"
            }
        }
    }

    var reason: Reason
    var status: Int
    var detail: String

    /// The problem answered: the status, the detail and the reason's stable code.
    var problem: ProblemDetails { ProblemDetails(status: status, detail: detail, code: reason.code) }

    static func malformed(_ detail: String) -> Refusal { Refusal(reason: .malformed, status: 400, detail: detail) }
}
