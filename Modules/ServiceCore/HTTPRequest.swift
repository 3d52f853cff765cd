public import Foundation

/// A fully built HTTP request, as middlewares see it and a ``Transport`` sends it.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL, already percent-encoded.
    public var url: URL
    /// The header fields, in order. Transports send them as given.
    public var headers: HTTPHeaders
    /// The body bytes, or `nil` for none.
    public var body: Data?
    /// How long the transport may take for this attempt, or `nil` for the transport's default.
    public var timeout: Duration?

    /// Creates a request.
    public init(
        method: HTTPMethod,
        url: URL,
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
