public import Foundation

/// An HTTP response as a ``Transport`` returns it.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, in order, repeated names kept.
    public var headers: HTTPHeaders
    /// The body bytes (empty when there were none).
    public var body: Data
    /// The values decoded from `body`, kept when the response is handed to several callers
    /// (``SharedDecodings``); `nil` for a response that has one caller.
    package var sharedDecodings: SharedDecodings?

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
