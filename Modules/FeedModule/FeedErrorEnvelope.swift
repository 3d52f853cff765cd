/// The feed upstream's error body: an RFC 9457 problem document
/// (`application/problem+json`).
///
/// Read it from a failed call with `error.envelope(as:)`. Decoding is lenient so that a proxy's
/// partial problem still decodes: only the members present are set, and ``type`` is
/// `about:blank` when absent (RFC 9457 §3.1.1).
public struct FeedErrorEnvelope: Codable, Sendable, Equatable, CustomStringConvertible {
    /// A URI naming the problem type, `about:blank` for a plain HTTP status.
    public var type: String
    /// A short summary of the problem type.
    public var title: String?
    /// The HTTP status code the upstream answered with.
    public var status: Int?
    /// What happened in this occurrence, for a person.
    public var detail: String?
    /// A stable machine-readable code such as `not_found` (the codes are listed in `docs/upstreams.md`).
    public var code: String?

    /// Creates an envelope.
    public init(type: String = "about:blank", title: String?, status: Int?, detail: String? = nil, code: String? = nil)
    {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
    }

    private enum CodingKeys: String, CodingKey {
        case type, title, status, detail, code
    }

    /// Decodes the members present; a missing `type` is `about:blank`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
        title = try container.decodeIfPresent(String.self, forKey: .title)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
        code = try container.decodeIfPresent(String.self, forKey: .code)
    }

    /// The problem in one line for logs: status, code (or title), detail.
    public var description: String {
        let head = [status.map(String.init), code ?? title].compactMap { $0 }.joined(separator: " ")
        return detail.map { head.isEmpty ? $0 : "\(head): \($0)" } ?? head
    }
}
