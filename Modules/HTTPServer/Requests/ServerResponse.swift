public import Foundation
public import HTTPTypes

/// The answer a handler gives to one request.
///
/// The server adds `Content-Length` (and `Date`) itself and drops framing and connection-specific
/// fields from ``headers`` (`Content-Length`, `Transfer-Encoding`, `Trailer`, `Connection`,
/// `Keep-Alive`, `Proxy-Connection`, `TE`, `Upgrade`), so an upstream's answer can be passed on as
/// it is; `Connection: close` still closes the connection after the answer. A body given with
/// status 204 or 304 is dropped, as HTTP requires.
public struct ServerResponse: Sendable {
    /// The status code, 200 through 599.
    public var status: Int
    /// The header fields to send, in order.
    public var headers: ServerHeaders
    /// The body bytes.
    public var body: Data
    /// Whether the connection is reset instead of answered (``resetConnection``).
    public internal(set) var resetsConnection = false

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
