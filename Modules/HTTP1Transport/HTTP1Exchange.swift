import HTTPTypes
import ServiceCore
import Synchronization

/// One request on the fast path, from its submission to its answer or failure.
///
/// Created by the calling task on an event loop's thread and from then on read and written only
/// on that thread by its ``HTTP1LoopClient``; the cancellation handler, which may run anywhere,
/// only hands the exchange back to that thread with `IOEventLoop.execute`. That is why
/// `@unchecked Sendable` is safe here.
final class HTTP1Exchange: @unchecked Sendable {
    /// The request's bytes: head and body; emptied once the request has finished.
    var bytes: [UInt8]
    /// Where it goes.
    let target: HTTP1Target
    /// The method, for the summary and for `HEAD` (whose answer has no body).
    let method: HTTPMethod
    /// How long the request may take.
    let timeout: Duration
    /// When the request times out: when it was created plus ``timeout``.
    let deadline: ContinuousClock.Instant
    /// The caller, resumed exactly once by ``HTTP1LoopClient/finish(_:with:)``.
    var continuation: UnsafeContinuation<HTTPResponse, any Error>?
    /// The connection carrying it, once it has one.
    var connection: HTTP1Connection?

    init(bytes: [UInt8], target: HTTP1Target, method: HTTPMethod, timeout: Duration) {
        self.bytes = bytes
        self.target = target
        self.method = method
        self.timeout = timeout
        deadline = .now + timeout
    }

    /// Whether its caller has been resumed.
    var isFinished: Bool { continuation == nil }

    /// `METHOD http://authority/path` for error messages: no query, which may hold secrets.
    var summary: String {
        let path = target.requestTarget.prefix { $0 != "?" }
        return "\(method) http://\(target.authority)\(path)"
    }
}
