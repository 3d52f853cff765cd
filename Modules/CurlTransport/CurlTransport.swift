public import EventLoops
public import HTTPTypes
public import ServiceCore
import Synchronization

/// A ``ServiceCore/Transport`` on libcurl's multi interface: the fast path for a backend.
///
/// Built with the `EventLoopGroup` an HTTP server runs on, a request sent from one of those loops
/// (a request handler) runs on that loop: libcurl's sockets are watched there, and the caller
/// resumes there, with no hand-over between threads (see ``Configuration/usesCallerEventLoop``).
/// From anywhere else (or without a group),
/// one dedicated thread owns one libcurl multi handle and drives the transfer; requests reach it
/// through a locked queue and a wake-up, so a call costs one hand-over each way. Connections are
/// kept alive and pooled per host, easy handles are reused, HTTP/2 is used over TLS when the
/// server offers it, and cookies and redirects are off.
///
/// ```swift
/// let transport = CurlTransport(configuration: .sized(forConcurrency: 64), eventLoops: serverLoops)
/// let response = try await transport.send(HTTPRequest(method: .get, url: url, timeout: .seconds(2)))
/// await transport.shutdown()
/// ```
///
/// Create one per process (or per group of upstreams) and share it: it is `Sendable`, and every
/// instance has its own thread and connection pool, and one more pool per event loop it runs on.
/// Call ``shutdown(gracePeriod:)`` when done; dropping the last reference also stops the thread
/// and the loops' transfers, without waiting.
public final class CurlTransport: Transport {
    /// The settings this transport was created with.
    public let configuration: Configuration
    /// The loops whose requests run on the caller's loop, or `nil` for none.
    public let eventLoops: EventLoopGroup?
    private let loop: CurlMultiLoop
    private let loopDrivers: IOEventLoopMembers<CurlLoopDriver>

    /// Creates a transport and starts its thread.
    /// - Parameters:
    ///   - configuration: Timeouts, connection pool sizes, limits; see ``Configuration``.
    ///   - eventLoops: The loops a request may run on when it is sent from one of them (the
    ///     group of the HTTP server whose handlers call this transport); `nil` for none.
    public init(configuration: Configuration = Configuration(), eventLoops: EventLoopGroup? = nil) {
        self.configuration = configuration
        self.eventLoops = eventLoops
        loop = CurlMultiLoop(configuration: configuration)
        loopDrivers = IOEventLoopMembers { loop, onClose in
            CurlLoopDriver(loop: loop, configuration: configuration, onClose: onClose)
        }
    }

    deinit {
        loop.shutdownWithoutWaiting()
        loopDrivers.shutdownWithoutWaiting()
    }

    /// The name of the transport's thread, `swifty.curl.<n>` (for tests and diagnostics).
    package var threadName: String { loop.threadName }

    /// Sends one request and returns its response.
    ///
    /// The headers are sent exactly as given: libcurl's own `Accept`, `Expect: 100-continue` and
    /// form `Content-Type` are suppressed unless the request sets them. A body is sent byte for
    /// byte with a `Content-Length`; `POST`, `PUT` and `PATCH` without a body send an empty one.
    /// `HEAD` never sends or receives a body. Interim 1xx responses are skipped.
    ///
    /// - Throws: `TransportError` with code `invalidRequest` (not an absolute http/https URL, a bad
    ///   method or header), `timedOut` (after `request.timeout`, or the configured default),
    ///   `cancelled` (the calling task was cancelled; the transfer is removed at once),
    ///   `connectionFailed`, `connectionClosed`, `responseTooLarge` (see
    ///   ``Configuration/maxResponseBodySize``), `shutDown`, or `other`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transfer = try CurlTransfer(request: request, configuration: configuration)
        if Task.isCancelled { throw TransportError(.cancelled, "\(transfer.summary) was cancelled before it was sent") }
        if configuration.usesCallerEventLoop, let eventLoop = eventLoops?.loopOfCaller {
            guard let driver = loopDrivers.member(for: eventLoop) else {
                if loopDrivers.isShutDown {
                    throw TransportError(.shutDown, "the transport was shut down before \(transfer.summary)")
                }
                return try await sendOnOwnThread(transfer)
            }
            return try await withTaskCancellationHandler {
                // Unsafe (no checking canary to allocate): the transfer's continuation is resumed
                // exactly once, by `CurlMultiEngine.complete`, which every path (finished, failed,
                // cancelled, refused after a shutdown, torn down) goes through and whose
                // `finished` state makes a second call return without resuming.
                try await withUnsafeThrowingContinuation { continuation in
                    // Still on the loop's thread: nothing suspended since `loopOfCaller`.
                    transfer.continuation = continuation
                    driver.submit(transfer)
                }
            } onCancel: {
                transfer.cancelRequested.store(true, ordering: .releasing)
                driver.loop.execute { driver.cancel(transfer) }
            }
        }
        return try await sendOnOwnThread(transfer)
    }

    private func sendOnOwnThread(_ transfer: CurlTransfer) async throws -> HTTPResponse {
        try await withTaskCancellationHandler {
            // Unsafe (no checking canary to allocate): resumed exactly once, here when the curl
            // thread refuses the transfer (it is then never queued), otherwise by
            // `CurlMultiEngine.complete`, which the curl thread calls for every transfer it took
            // (started, cancelled, or left in the queue at exit) and which resumes only the first time.
            try await withUnsafeThrowingContinuation { continuation in
                transfer.continuation = continuation
                if let refusal = loop.submit(transfer) {
                    transfer.continuation = nil
                    continuation.resume(throwing: refusal)
                }
            }
        } onCancel: {
            loop.cancel(transfer)
        }
    }

    /// Stops the transport: new requests fail with `shutDown` at once, requests in flight may
    /// finish within `gracePeriod` and then fail with `shutDown`; returns when the thread has ended
    /// and every libcurl handle is cleaned up. Calling it again returns at once.
    /// - Parameter gracePeriod: How long requests in flight may still take. Default zero.
    public func shutdown(gracePeriod: Duration = .zero) async {
        async let ownThread: Void = loop.shutdown(gracePeriod: gracePeriod)
        await loopDrivers.shutdown(gracePeriod: gracePeriod)
        await ownThread
    }

    /// How many event loops this transport currently runs transfers on (for tests).
    package var eventLoopCount: Int { loopDrivers.count }
}
