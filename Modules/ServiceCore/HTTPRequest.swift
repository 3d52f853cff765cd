public import Foundation

/// A fully built HTTP request, as middlewares see it and a ``Transport`` sends it.
///
/// The URL is kept as given: a `URL` when the request was made from one, or the text
/// ``ServiceClient`` built (already percent-encoded and checked), which is only parsed into a
/// `URL` when ``url`` is read. Transports and middlewares that need only the text read
/// ``urlString``, which never parses.
public struct HTTPRequest: Sendable {
    /// Where the URL is kept.
    private enum Location: Sendable {
        case url(URL)
        /// Absolute `http(s)` URL text that `URL(string:)` accepts, built by the client.
        case text(String)
    }

    /// The method.
    public var method: HTTPMethod
    /// The header fields, in order. Transports send them as given.
    public var headers: HTTPHeaders
    /// The body bytes, or `nil` for none.
    public var body: Data?
    /// How long the transport may take for this attempt, or `nil` for the transport's default.
    public var timeout: Duration?

    private var location: Location

    /// The absolute URL, already percent-encoded.
    ///
    /// For a request built by ``ServiceClient`` reading it parses ``urlString`` (Foundation's
    /// URL parser, about a third of a microsecond); setting it replaces the URL.
    public var url: URL {
        get {
            switch location {
            case .url(let url):
                return url
            case .text(let text):
                // The client builds the text from a base URL Foundation parsed, a path of RFC 3986
                // path characters and a query of unreserved characters and escapes: it always
                // parses (the request building tests check hostile inputs).
                guard let url = URL(string: text) else {
                    preconditionFailure("a URL built by ServiceClient does not parse")
                }
                return url
            }
        }
        set { location = .url(newValue) }
    }

    /// The absolute URL's text, exactly as sent: `url.absoluteString`, without parsing it when
    /// the request was built by ``ServiceClient``.
    public var urlString: String {
        switch location {
        case .url(let url): url.absoluteString
        case .text(let text): text
        }
    }

    /// The URL text when the request was built by ``ServiceClient`` (absolute `http(s)` with a
    /// host, checked there), else `nil`: transports may send it without checking it again.
    package var checkedURLString: String? {
        if case .text(let text) = location { text } else { nil }
    }

    /// Creates a request.
    public init(
        method: HTTPMethod,
        url: URL,
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: Duration? = nil
    ) {
        self.method = method
        self.location = .url(url)
        self.headers = headers
        self.body = body
        self.timeout = timeout
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
        self.method = method
        self.location = .text(checkedURLString)
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
