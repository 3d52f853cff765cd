public import Foundation

/// The answer a handler gives to one request.
///
/// The server adds `Content-Length` (and `Date`) itself; a body given with status 204 or 304
/// is dropped, as HTTP requires.
public struct ServerResponse: Sendable {
    /// The status code, 200 through 599.
    public var status: Int
    /// The header fields to send, in order.
    public var headers: ServerHeaders
    /// The body bytes.
    public var body: Data

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    public init(status: Int, headers: ServerHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
