import Foundation
public import HTTPTypes
import ServiceCore
public import Testing

/// The exact request a service case must produce: method, URL text, every header field in order,
/// and the body as text.
///
/// ```swift
/// let expected = ExpectedRequest(
///     method: .get,
///     url: "https://users.example.com/v1/users/alice",
///     headers: [("Accept", "application/json")]
/// )
/// expected.check(try client.makeRequest(.profile(id: "alice")))
/// ```
public struct ExpectedRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL, as text.
    public var url: String
    /// Every header field, in order, as (name, value) pairs.
    public var headers: [(String, String)]
    /// The body decoded as UTF-8, or `nil` for no body.
    public var body: String?

    /// Creates an expectation.
    /// - Parameters:
    ///   - method: The method.
    ///   - url: The absolute URL, as text.
    ///   - headers: Every header field, in order.
    ///   - body: The body as text, or `nil` for none.
    public init(method: HTTPMethod, url: String, headers: [(String, String)], body: String? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Records a test issue for every part of `request` that differs from this expectation.
    /// - Parameters:
    ///   - request: The request a case produced.
    ///   - sourceLocation: Where the issues are reported; the caller's line by default.
    public func check(_ request: HTTPRequest, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(request.method == method, sourceLocation: sourceLocation)
        #expect(request.url.absoluteString == url, sourceLocation: sourceLocation)
        #expect(
            request.headers.fields == headers.map { HTTPHeaders.Field(name: $0.0, value: $0.1) },
            sourceLocation: sourceLocation
        )
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == body, sourceLocation: sourceLocation)
    }
}
