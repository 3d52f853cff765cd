public import Foundation
public import HTTPTypes

/// One HTTP request as the server received it.
///
/// The request-target is kept exactly as sent (still percent-encoded, query included), so
/// RFC 9421 `@path`, `@query` and `@target-uri` components can be verified byte for byte.
public struct ServerRequest: Sendable {
    /// The method, as sent (for example `GET`).
    public var method: String
    /// The raw request-target as received, for example `/v1/x%2Fy?a=1&b=2`.
    public var target: String
    /// The raw (still percent-encoded) path part of ``target``.
    public var path: String
    /// The raw query of ``target`` without the `?`, or `nil` when the target has no `?`.
    public var query: String?
    /// The protocol version, for example `HTTP/1.1`.
    public var version: String
    /// The header fields in the order received.
    public var headers: ServerHeaders
    /// The request body; empty when the request had none.
    public var body: Data
    /// The client's numeric IP address (IPv4 or IPv6), or an empty string when unknown.
    ///
    /// The server keeps the address as the connection reported it and formats it when this is
    /// read, so a handler that never asks pays nothing for it.
    public var remoteAddress: String {
        get { remote.text }
        set { remote = RemoteAddress(text: newValue) }
    }
    /// The client's address as the server or the initializer gave it.
    var remote: RemoteAddress

    /// Creates a request; the server builds these, tests and routers may too.
    /// - Parameters:
    ///   - method: The method, for example `GET`.
    ///   - target: The raw request-target; ``path`` and ``query`` are split from it at the first `?`.
    ///   - version: The protocol version.
    ///   - headers: The header fields.
    ///   - body: The body.
    ///   - remoteAddress: The client's numeric address.
    public init(
        method: String,
        target: String,
        version: String = "HTTP/1.1",
        headers: ServerHeaders = [:],
        body: Data = Data(),
        remoteAddress: String = ""
    ) {
        self.init(
            method: method, target: target, version: version, headers: headers, body: body,
            remote: RemoteAddress(text: remoteAddress))
    }

    /// Creates a request with an address as the connection reported it (the server's path).
    ///
    /// Every stored property is set here once: delegating to the public initializer and then
    /// setting `remote` copied the whole request, for every request the server reads.
    init(
        method: String,
        target: String,
        version: String,
        headers: ServerHeaders,
        body: Data,
        remote: RemoteAddress
    ) {
        self.method = method
        self.target = target
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(target[..<mark])
            query = String(target[target.utf8.index(after: mark)...])
        } else {
            path = target
            query = nil
        }
        self.version = version
        self.headers = headers
        self.body = body
        self.remote = remote
    }
}
