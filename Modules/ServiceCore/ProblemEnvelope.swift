/// An upstream's error body as an RFC 9457 problem document (`application/problem+json`), with
/// the optional extension member `code`.
///
/// Use it as a service's ``Service/ErrorEnvelope`` when the upstream answers failures with
/// problem documents, then read it from a failed call:
///
/// ```swift
/// public enum UserService: Service {
///     public typealias ErrorEnvelope = ProblemEnvelope
///     // ...
/// }
///
/// catch let error as ServiceError {
///     if error.envelope(as: ProblemEnvelope.self)?.code == "not_found" { ... }
/// }
/// ```
///
/// Decoding is lenient so that a proxy's partial problem still decodes: only the members present
/// are set, and ``type`` is `about:blank` when absent (RFC 9457 §3.1.1). A member of the wrong
/// JSON type fails the decoding, and the error then carries no envelope.
public struct ProblemEnvelope: Codable, Sendable, Equatable, CustomStringConvertible {
    /// A URI naming the problem type, `about:blank` for a plain HTTP status.
    public var type: String
    /// A short summary of the problem type.
    public var title: String?
    /// The HTTP status code the upstream answered with.
    public var status: Int?
    /// What happened in this occurrence, for a person.
    public var detail: String?
    /// A stable machine-readable code such as `not_found` (each upstream lists its codes).
    public var code: String?

    /// Creates an envelope.
    /// - Parameters:
    ///   - type: The problem type's URI; `about:blank` by default.
    ///   - title: A short summary of the problem type.
    ///   - status: The HTTP status code.
    ///   - detail: What happened in this occurrence.
    ///   - code: A stable machine-readable code.
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
    /// - Throws: `DecodingError` when the body is not an object or a member has the wrong type.
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
