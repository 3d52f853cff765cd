import Foundation
import FoundationNetworking
import HTTPTypes
import ServiceCore
import Synchronization

/// The session delegate: collects each data task's response and resumes its caller exactly once.
///
/// Every piece of mutable state sits in one `Mutex`; the delegate queue, the calling tasks and the
/// timeout timers all go through it. That is why `@unchecked Sendable` is safe here.
final class URLSessionTaskRegistry: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Entry {
        var summary: String
        var timeout: Duration
        var continuation: CheckedContinuation<HTTPResponse, any Error>?
        var timer: Task<Void, Never>?
        var response: HTTPURLResponse?
        var body = Data()
        /// The failure decided on our side (timeout, cancellation, limit), which wins over the
        /// `URLError.cancelled` the session reports afterwards.
        var failure: TransportError?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var accepting = true
    }

    private let state = Mutex(State())
    private let configuration: URLSessionTransport.Configuration

    init(configuration: URLSessionTransport.Configuration) {
        self.configuration = configuration
    }

    var isAccepting: Bool { state.withLock { $0.accepting } }

    func register(_ id: Int, summary: String, timeout: Duration) {
        state.withLock { $0.entries[id] = Entry(summary: summary, timeout: timeout) }
    }

    /// Stores the continuation; when the request already failed (cancelled before it started, or
    /// the transport shut down), resumes it at once and returns `false`.
    func attach(
        _ continuation: CheckedContinuation<HTTPResponse, any Error>,
        timer: Task<Void, Never>,
        to id: Int
    ) -> Bool {
        let early: TransportError? = state.withLock { state in
            guard let entry = state.entries[id] else {
                return TransportError(.shutDown, "the transport was shut down")
            }
            if let failure = entry.failure {
                state.entries[id] = nil
                return failure
            }
            guard state.accepting else {
                state.entries[id] = nil
                return TransportError(.shutDown, "the transport was shut down before \(entry.summary) was sent")
            }
            state.entries[id]?.continuation = continuation
            state.entries[id]?.timer = timer
            return nil
        }
        if let early { continuation.resume(throwing: early) }
        return early == nil
    }

    /// Records a failure decided on our side. Returns `true` when the task is still running and
    /// should be cancelled, `false` when it had already finished.
    @discardableResult
    func fail(_ id: Int, code: TransportError.Code, message: String) -> Bool {
        state.withLock { state in
            guard state.entries[id] != nil, state.entries[id]?.failure == nil else { return false }
            state.entries[id]?.failure = TransportError(code, message)
            return true
        }
    }

    /// Marks every request in flight failed and stops accepting new ones.
    func failAll(code: TransportError.Code, message: String) {
        state.withLock { state in
            state.accepting = false
            for id in state.entries.keys where state.entries[id]?.failure == nil {
                state.entries[id]?.failure = TransportError(code, message)
            }
        }
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let limit = configuration.maxResponseBodySize
        let allowed = state.withLock { state -> Bool in
            let id = dataTask.taskIdentifier
            guard let entry = state.entries[id] else { return false }
            state.entries[id]?.response = response as? HTTPURLResponse
            state.entries[id]?.body = Data()
            if response.expectedContentLength > limit {
                state.entries[id]?.failure = URLSessionTaskRegistry.tooLarge(entry.summary, limit: limit)
                return false
            }
            if response.expectedContentLength > 0 {
                state.entries[id]?.body.reserveCapacity(Int(response.expectedContentLength))
            }
            return true
        }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let limit = configuration.maxResponseBodySize
        let overLimit = state.withLock { state -> Bool in
            let id = dataTask.taskIdentifier
            guard let entry = state.entries[id], entry.failure == nil else { return false }
            if entry.body.count + data.count > limit {
                state.entries[id]?.failure = URLSessionTaskRegistry.tooLarge(entry.summary, limit: limit)
                return true
            }
            state.entries[id]?.body.append(data)
            return false
        }
        if overLimit { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(configuration.followsRedirects ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let entry = state.withLock { $0.entries.removeValue(forKey: task.taskIdentifier) }
        entry?.timer?.cancel()
        guard let entry, let continuation = entry.continuation else { return }
        if let failure = entry.failure {
            continuation.resume(throwing: failure)
        } else if let error, let response = entry.response, response.expectedContentLength > entry.body.count,
            (error as? URLError)?.code == .unknown
        {
            // FoundationNetworking reports libcurl's "partial file" as `unknown`; the byte count
            // shows what happened.
            continuation.resume(
                throwing: TransportError(
                    .connectionClosed,
                    "the connection closed after \(entry.body.count) of the \(response.expectedContentLength) body bytes "
                        + "of the response to \(entry.summary)",
                    underlying: error
                )
            )
        } else if let error {
            continuation.resume(
                throwing: URLSessionTaskRegistry.map(error, summary: entry.summary, timeout: entry.timeout))
        } else if let response = entry.response ?? (task.response as? HTTPURLResponse) {
            continuation.resume(
                returning: HTTPResponse(
                    status: response.statusCode,
                    headers: URLSessionTaskRegistry.headers(of: response),
                    body: entry.body
                )
            )
        } else {
            continuation.resume(throwing: TransportError(.other, "\(entry.summary) ended without an HTTP response"))
        }
    }

    // MARK: Helpers

    private static func tooLarge(_ summary: String, limit: Int) -> TransportError {
        TransportError(.responseTooLarge, "the response to \(summary) is larger than the limit of \(limit) bytes")
    }

    /// The response's header fields, sorted by name: Foundation keeps no order, and merges
    /// repeated names into one comma-separated value.
    static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        for (key, value) in response.allHeaderFields {
            guard let name = key.base as? String else { continue }
            fields.append(HTTPHeaders.Field(name: name, value: "\(value)"))
        }
        fields.sort { $0.name.lowercased() < $1.name.lowercased() }
        return HTTPHeaders(fields)
    }

    /// The one place where `URLError` codes become ours.
    static func map(_ error: any Error, summary: String, timeout: Duration) -> TransportError {
        guard let urlError = error as? URLError else {
            return TransportError(.other, "\(summary) failed: \(error)", underlying: error)
        }
        let detail = "\(summary) failed: \(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"
        switch urlError.code {
        case .timedOut:
            return TransportError(.timedOut, "\(summary) did not complete within \(timeout)", underlying: error)
        case .cancelled:
            return TransportError(.cancelled, "\(summary) was cancelled", underlying: error)
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
            .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return TransportError(.connectionFailed, detail, underlying: error)
        case .networkConnectionLost, .zeroByteResource, .badServerResponse, .cannotParseResponse:
            return TransportError(.connectionClosed, detail, underlying: error)
        case .badURL, .unsupportedURL:
            return TransportError(.invalidRequest, detail, underlying: error)
        case .dataLengthExceedsMaximum:
            return TransportError(.responseTooLarge, detail, underlying: error)
        default:
            return TransportError(.other, detail, underlying: error)
        }
    }
}
