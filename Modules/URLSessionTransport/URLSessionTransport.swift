import Foundation
import FoundationNetworking
public import HTTPTypes
public import ServiceCore

/// A ``ServiceCore/Transport`` on Foundation's `URLSession`: portable, the library's default.
///
/// It runs wherever Foundation does, and needs no C library of its own. Its session is
/// ephemeral: no cookie storage (cookies are neither stored nor sent), no cache, no credential
/// storage, redirects returned rather than followed unless configured.
///
/// On Linux, `URLSession` (FoundationNetworking) is much slower than ``CurlTransport`` under load
/// and merges repeated response header names into one comma-separated value; use it where
/// portability matters more than throughput. See `docs/transports.md`.
public final class URLSessionTransport: Transport {
    /// The settings this transport was created with.
    public let configuration: Configuration
    private let session: URLSession
    private let registry: URLSessionTaskRegistry

    /// Creates a transport with its own ephemeral session.
    /// - Parameter configuration: Timeouts, limits and redirects; see ``Configuration``.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        registry = URLSessionTaskRegistry(configuration: configuration)
        let settings = URLSessionConfiguration.ephemeral
        settings.urlCache = nil
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.httpCookieStorage = nil
        settings.httpCookieAcceptPolicy = .never
        settings.httpShouldSetCookies = false
        settings.urlCredentialStorage = nil
        settings.httpMaximumConnectionsPerHost = max(1, configuration.maxConnectionsPerHost)
        settings.timeoutIntervalForRequest = configuration.defaultTimeout.timeInterval
        settings.timeoutIntervalForResource = 7 * 86_400
        let queue = OperationQueue()
        queue.name = "swifty.urlsession"
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: settings, delegate: registry, delegateQueue: queue)
    }

    deinit {
        registry.failAll(code: .shutDown, message: "the transport was released")
        session.invalidateAndCancel()
    }

    /// Sends one request and returns its response.
    ///
    /// - Throws: `TransportError` with code `invalidRequest` (not an absolute http/https URL),
    ///   `timedOut` (after `request.timeout`, or the configured default, in total), `cancelled`
    ///   (the calling task was cancelled; the data task is cancelled), `connectionFailed`,
    ///   `connectionClosed`, `responseTooLarge`, `shutDown`, or `other`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let url = request.url  // parsed once: `HTTPRequest` keeps its URL as text
        let urlRequest = try makeURLRequest(request, url: url)
        let summary = "\(request.method) \(url.errorSummary)"
        if Task.isCancelled { throw TransportError(.cancelled, "\(summary) was cancelled before it was sent") }
        let task = session.dataTask(with: urlRequest)
        let id = task.taskIdentifier
        let timeout = request.timeout ?? configuration.defaultTimeout
        registry.register(id, summary: summary, timeout: timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // URLRequest.timeoutInterval is an idle timeout; this timer bounds the whole exchange
                // and is cancelled (freeing it) as soon as the exchange ends.
                let registry = registry
                let timer = Task { [weak task] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    if registry.fail(id, code: .timedOut, message: "\(summary) did not complete within \(timeout)") {
                        task?.cancel()
                    }
                }
                guard registry.attach(continuation, timer: timer, to: id) else {
                    timer.cancel()
                    return
                }
                task.resume()
            }
        } onCancel: {
            if registry.fail(id, code: .cancelled, message: "\(summary) was cancelled") { task.cancel() }
        }
    }

    /// Cancels every request in flight (they fail with `shutDown`) and invalidates the session;
    /// later requests fail with `shutDown`.
    public func shutdown() {
        registry.failAll(code: .shutDown, message: "the transport was shut down")
        session.invalidateAndCancel()
    }

    private func makeURLRequest(_ request: HTTPRequest, url: URL) throws -> URLRequest {
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            throw TransportError(
                .invalidRequest,
                "only absolute http and https URLs can be sent, not '\(url.errorSummary)'"
            )
        }
        for field in request.headers where field.value.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) {
            throw TransportError(
                .invalidRequest, "the value of header '\(field.name)' contains a line break or NUL byte")
        }
        guard registry.isAccepting else {
            throw TransportError(.shutDown, "the transport was shut down before \(request.method) was sent")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.httpShouldHandleCookies = false
        urlRequest.timeoutInterval = (request.timeout ?? configuration.defaultTimeout).timeInterval
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if request.method != .head {
            urlRequest.httpBody = request.body
        }
        return urlRequest
    }

}
