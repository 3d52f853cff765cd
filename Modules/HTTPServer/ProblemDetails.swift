/// An RFC 9457 problem document, sent as `application/problem+json`.
public struct ProblemDetails: Codable, Sendable, Equatable {
    /// A URI reference naming the problem type; `about:blank` when the status says it all.
    public var type: String
    /// A short summary of the problem type, for example `Bad Request`.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// What went wrong with this request, for a person to act on.
    public var detail: String

    /// Creates a problem document.
    /// - Parameters:
    ///   - type: The problem type URI; `about:blank` unless given.
    ///   - title: A short summary; the status's reason phrase unless given.
    ///   - status: The HTTP status code.
    ///   - detail: What went wrong with this request.
    public init(type: String = "about:blank", title: String? = nil, status: Int, detail: String) {
        self.type = type
        self.title = title ?? ProblemDetails.reasonPhrase(for: status)
        self.status = status
        self.detail = detail
    }

    /// The standard reason phrase for `status`, or `Error` for an unknown code.
    public static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Error"
        }
    }
}
