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
    }

    var reason: Reason
    var status: Int
    var detail: String

    static func malformed(_ detail: String) -> Refusal { Refusal(reason: .malformed, status: 400, detail: detail) }
}
