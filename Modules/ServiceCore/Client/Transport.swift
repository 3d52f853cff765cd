/// The one thing that does I/O: sends a request and returns the response.
///
/// Implement it to put a network library under the core (the project ships URLSession and
/// libcurl transports; the test kit ships mock and recording ones). Use it by handing an
/// instance to ``ServiceClient``; a transport is never called by feature code directly.
///
/// A transport:
/// - sends `request.headers` and `request.body` exactly as given, and honours `request.timeout`;
/// - returns any status code as a response (status validation is the client's job);
/// - stops promptly when the calling task is cancelled and throws a ``TransportError`` with code
///   ``TransportError/Code-swift.struct/cancelled``;
/// - throws ``TransportError`` for every failure, so callers can tell a timeout from a refusal.
///
/// `ServiceTesting.TransportConformance` checks all of this against a real server.
public protocol Transport: Sendable {
    /// Sends one request and returns its response.
    /// - Throws: ``TransportError``.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
