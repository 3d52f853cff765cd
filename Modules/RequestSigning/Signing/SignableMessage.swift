public import Foundation
public import HTTPTypes
import ServiceCore

/// An HTTP message as signing sees it: the parts RFC 9421 derives components from, the header
/// fields in order, and the body.
///
/// It depends on no transport or server. Build one from a ``ServiceCore/HTTPRequest``
/// (``init(_:)``), from the parts of a received request (``init(method:scheme:requestTarget:headers:body:)``:
/// the raw request target and the `Host` field), or for a response (``init(status:headers:body:request:)``).
/// Paths and queries are kept exactly as percent-encoded on the wire.
public struct SignableMessage: Sendable {
    /// The request method, case-sensitive (empty for a response).
    public var method: String
    /// The scheme, `https` or `http`.
    public var scheme: String
    /// The authority as sent (the `Host` field or the URL's host and port); ``normalizedAuthority``
    /// is what `@authority` covers.
    public var authority: String
    /// The path, still percent-encoded (empty when the target has none).
    public var path: String
    /// The query without its `?`, still percent-encoded, or `nil` when there is no `?`.
    public var query: String?
    /// The request target exactly as on the request line (origin form `/a?b` unless the request
    /// used the absolute, authority or asterisk form); derived from ``path`` and ``query`` when
    /// not set.
    public var requestTarget: String {
        get { rawRequestTarget ?? (path.isEmpty ? "/" : path) + (query.map { "?" + $0 } ?? "") }
        set { rawRequestTarget = newValue }
    }
    /// The request target as received, when it was given.
    private(set) var rawRequestTarget: String?
    /// The status code, for a response; `nil` for a request.
    public var status: Int?
    /// The header fields, in order, repeated names kept.
    public var headers: HTTPHeaders
    /// The trailer fields, covered with the `tr` parameter.
    public var trailers: HTTPHeaders
    /// The body, or `nil` for none.
    public var body: Data?
    /// Holds the related request of a response (zero or one element).
    private var relatedRequest: [SignableMessage]

    /// Creates a request from its parts.
    /// - Parameters:
    ///   - method: The method, for example `GET`.
    ///   - scheme: `https` or `http`.
    ///   - authority: The host and optional port.
    ///   - path: The percent-encoded path.
    ///   - query: The percent-encoded query without `?`, or `nil`.
    ///   - headers: The header fields, in order.
    ///   - body: The body, or `nil`.
    public init(
        method: String,
        scheme: String = "https",
        authority: String,
        path: String,
        query: String? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        body: Data? = nil
    ) {
        self.method = method
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.rawRequestTarget = nil
        self.status = nil
        self.headers = headers
        self.trailers = HTTPHeaders()
        self.body = body
        self.relatedRequest = []
    }

    /// Creates a request from what a server received: the method, the raw request target and
    /// the header fields. The authority comes from an absolute-form target, else from `Host`.
    /// - Parameters:
    ///   - method: The method token.
    ///   - scheme: The scheme the request arrived over (a server behind a TLS terminator passes
    ///     `https`).
    ///   - requestTarget: The request target as on the request line, for example `/v1/x%2Fy?a=1`.
    ///   - headers: The header fields, in order.
    ///   - body: The body, or `nil`.
    /// - Throws: ``SigningError`` with code `invalidMessage` for an empty or malformed target.
    public init(
        method: String,
        scheme: String = "https",
        requestTarget: String,
        headers: HTTPHeaders,
        body: Data? = nil
    ) throws(SigningError) {
        self.init(method: method, scheme: scheme, authority: "", path: "", headers: headers, body: body)
        self.requestTarget = requestTarget
        if let host = MessageText.firstValue(in: headers, lowercaseName: "host") {
            authority = MessageText.trimmed(host)
        }
        if requestTarget.hasPrefix("/") {
            let split = Self.splitPathAndQuery(Substring(requestTarget))
            path = split.path
            query = split.query
        } else if requestTarget == "*" {
            path = ""
        } else if let uri = URIParts(requestTarget) {
            self.scheme = uri.scheme
            authority = uri.authority
            path = uri.path
            query = uri.query
        } else if method == "CONNECT", !requestTarget.isEmpty, !requestTarget.contains("/") {
            authority = requestTarget
        } else {
            throw SigningError(.invalidMessage, "the request target \"\(requestTarget)\" is not a valid target")
        }
    }

    /// Creates a request from a ``ServiceCore/HTTPRequest``: scheme, authority, path and query
    /// come from the URL exactly as percent-encoded there.
    /// - Throws: ``SigningError`` with code `invalidMessage` for a URL without scheme or host.
    public init(_ request: HTTPRequest) throws(SigningError) {
        guard let uri = URIParts(request.urlString), !uri.authority.isEmpty else {
            throw SigningError(.invalidMessage, "the URL has no scheme and host to sign: \(request.urlString)")
        }
        self.init(
            method: request.method.rawValue, scheme: uri.scheme, authority: uri.authority, path: uri.path,
            query: uri.query, headers: request.headers, body: request.body)
    }

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields, in order.
    ///   - body: The body, or `nil`.
    ///   - request: The request it answers, for components with the `req` parameter.
    public init(status: Int, headers: HTTPHeaders, body: Data? = nil, request: SignableMessage? = nil) {
        self.init(method: "", authority: "", path: "", headers: headers, body: body)
        self.requestTarget = ""
        self.status = status
        self.relatedRequest = request.map { [$0] } ?? []
    }

    /// The request a response answers, for `req` components.
    public var request: SignableMessage? {
        get { relatedRequest.first }
        set { relatedRequest = newValue.map { [$0] } ?? [] }
    }

    /// Whether this is a response.
    public var isResponse: Bool { status != nil }

    /// Whether the message has a body of at least one byte (the ones `Content-Digest` covers).
    public var hasBody: Bool { !(body?.isEmpty ?? true) }

    /// The authority as `@authority` covers it: host lowercased, default port (443 for https,
    /// 80 for http) removed.
    public var normalizedAuthority: String {
        MessageText.normalizedAuthority(authority, scheme: scheme)
    }

    /// Splits `path?query` at the first `?` byte, as RFC 3986 does: a search by `Character` would
    /// miss a `?` that a combining mark follows, since the two make one character.
    static func splitPathAndQuery(_ text: Substring) -> (path: String, query: String?) {
        let bytes = text.utf8
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return (String(text), nil) }
        return (String(text[..<mark]), String(text[bytes.index(after: mark)...]))
    }
}
