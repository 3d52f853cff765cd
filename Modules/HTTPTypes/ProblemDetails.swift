/// An RFC 9457 problem document (`application/problem+json`): the one problem type of the
/// project, for the server's own refusals, the app API's answers, the sandbox upstreams' answers
/// and the error bodies a module decodes from its upstream.
///
/// The standard members are `type`, `title`, `status` and `detail`; `code` is the stable
/// machine-readable code the upstream contract adds, and ``extensions`` holds any further
/// extension members a producer sends (for example the app API's `requestId` and `module`).
///
/// ```swift
/// let problem = ProblemDetails(status: 404, detail: "No user u-1.", code: "not_found")
/// ```
///
/// Decoding is lenient so that a proxy's partial problem still decodes: only the members present
/// are set, and ``type`` is `about:blank` when absent (RFC 9457 §3.1.1). A standard member of the
/// wrong JSON type fails the decoding. Extension members other than `code` are not decoded.
public struct ProblemDetails: Codable, Sendable, Equatable, CustomStringConvertible {
    /// An extension member with a string value, encoded after the standard members.
    public struct Extension: Sendable, Equatable {
        /// The member's name, for example `requestId`.
        public var name: String
        /// The member's value.
        public var value: String

        /// Creates an extension member.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A URI reference naming the problem type; `about:blank` when the status says it all.
    public var type: String
    /// A short summary of the problem type, for example `Bad Request`.
    public var title: String?
    /// The HTTP status code.
    public var status: Int?
    /// What went wrong in this occurrence, for a person to act on.
    public var detail: String?
    /// A stable machine-readable code such as `not_found` (each upstream lists its codes).
    public var code: String?
    /// Further extension members, in the order they are encoded.
    public var extensions: [Extension]

    /// Creates a problem document for an answer of ours.
    /// - Parameters:
    ///   - type: The problem type URI; `about:blank` unless given.
    ///   - title: A short summary; the status's reason phrase unless given.
    ///   - status: The HTTP status code.
    ///   - detail: What went wrong. Never put secrets or request bodies here.
    ///   - code: A stable machine-readable code, if the API has one for this problem.
    ///   - extensions: Further extension members.
    public init(
        type: String = "about:blank",
        title: String? = nil,
        status: Int,
        detail: String,
        code: String? = nil,
        extensions: [Extension] = []
    ) {
        self.type = type
        self.title = title ?? Self.reasonPhrase(for: status)
        self.status = status
        self.detail = detail
        self.code = code
        self.extensions = extensions
    }

    /// Creates a problem document with any member absent, as a decoded upstream body may be.
    /// - Parameters:
    ///   - type: The problem type URI; `about:blank` unless given.
    ///   - title: A short summary.
    ///   - status: The HTTP status code.
    ///   - detail: What went wrong in this occurrence.
    ///   - code: A stable machine-readable code.
    public init(
        type: String = "about:blank",
        title: String?,
        status: Int?,
        detail: String? = nil,
        code: String? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
        self.extensions = []
    }

    /// The value of the extension member `name`, or `nil`.
    public subscript(extension name: String) -> String? {
        extensions.first { $0.name == name }?.value
    }

    /// The problem in one line for logs: status, code (or title), detail.
    public var description: String {
        let head = [status.map(String.init), code ?? title].compactMap { $0 }.joined(separator: " ")
        return detail.map { head.isEmpty ? $0 : "\(head): \($0)" } ?? head
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
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }

    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static let type = MemberKey("type")
        static let title = MemberKey("title")
        static let status = MemberKey("status")
        static let detail = MemberKey("detail")
        static let code = MemberKey("code")
    }

    /// Decodes the members present; a missing `type` is `about:blank`.
    /// - Throws: `DecodingError` when the body is not an object or a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: MemberKey.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
        title = try container.decodeIfPresent(String.self, forKey: .title)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
        code = try container.decodeIfPresent(String.self, forKey: .code)
        extensions = []
    }

    /// Encodes the members that are set: `type`, `title`, `status`, `detail`, `code`, then the
    /// extension members in order.
    /// - Throws: The encoder's error.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MemberKey.self)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(detail, forKey: .detail)
        try container.encodeIfPresent(code, forKey: .code)
        for member in extensions {
            try container.encode(member.value, forKey: MemberKey(member.name))
        }
    }
}
