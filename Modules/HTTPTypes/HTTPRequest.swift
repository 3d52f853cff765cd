public import Foundation

/// A fully built HTTP request, as middlewares see it and a ``Transport`` sends it.
///
/// The URL is kept as given: a `URL` when the request was made from one, or the text
/// ``ServiceClient`` built (already percent-encoded and checked), which is only parsed into a
/// `URL` when ``url`` is read. Transports and middlewares that need only the text read
/// ``urlString``, which never parses.
public struct HTTPRequest: Sendable {
    // The optional properties are spelled `Optional<T>`: a `T?` variable gets an implicit `nil`
    // initial value, and with it the initializers copy and then destroy the whole request.

    /// The method.
    public var method: HTTPMethod
    /// The header fields, in order. Transports send them as given.
    public var headers: HTTPHeaders
    /// The body bytes, or `nil` for none.
    public var body: Optional<Data>
    /// How long the transport may take for this attempt, or `nil` for the transport's default.
    public var timeout: Optional<Duration>

    /// The URL's text; always set.
    private var text: String
    /// The `URL` the request was made from, or `nil` for text built by the client. Two plain
    /// stored properties rather than an enum: copying a request (every middleware does) stays a
    /// pair of retains, without a call to an outlined copy of a multi-payload enum.
    private var parsed: Optional<URL>

    /// The absolute URL, already percent-encoded.
    ///
    /// For a request built by ``ServiceClient`` reading it parses ``urlString`` (Foundation's
    /// URL parser, about a third of a microsecond); setting it replaces the URL.
    public var url: URL {
        get {
            if let parsed { return parsed }
            // The client builds the text from a base URL Foundation parsed, a path of RFC 3986
            // path characters and a query of unreserved characters and escapes: it always
            // parses (the request building tests check hostile inputs).
            guard let url = URL(string: text) else {
                preconditionFailure("a URL built by ServiceClient does not parse")
            }
            return url
        }
        set {
            parsed = newValue
            text = newValue.absoluteString
        }
    }

    /// The absolute URL's text, exactly as sent: `url.absoluteString`, without parsing it when
    /// the request was built by ``ServiceClient``.
    public var urlString: String { text }

    /// The URL text when the request was built by ``ServiceClient`` (absolute `http(s)` with a
    /// host, checked there), else `nil`: transports may send it without checking it again.
    package var checkedURLString: String? { parsed == nil ? text : nil }

    /// Creates a request.
    public init(
        method: HTTPMethod,
        url: URL,
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: Duration? = nil
    ) {
        self.init(method: method, text: url.absoluteString, parsed: url, headers: headers, body: body, timeout: timeout)
    }

    /// Creates a request from URL text the caller has already checked: absolute `http(s)`,
    /// percent-encoded, and accepted by `URL(string:)`.
    package init(
        method: HTTPMethod,
        checkedURLString: String,
        headers: HTTPHeaders,
        body: Data?,
        timeout: Duration?
    ) {
        self.init(method: method, text: checkedURLString, parsed: nil, headers: headers, body: body, timeout: timeout)
    }

    /// The same request with `headers` as its header fields.
    ///
    /// It copies the request once; a copy whose ``headers`` are then set is copied again when
    /// it is returned.
    public func replacingHeaders(_ headers: HTTPHeaders) -> HTTPRequest {
        HTTPRequest(method: method, text: text, parsed: parsed, headers: headers, body: body, timeout: timeout)
    }

    private init(
        method: HTTPMethod,
        text: String,
        parsed: URL?,
        headers: HTTPHeaders,
        body: Data?,
        timeout: Duration?
    ) {
        self.method = method
        self.text = text
        self.parsed = parsed
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
