public import AppLogging
public import EventLoops
public import HTTPTypes
public import ServiceCore

/// A ``ServiceCore/Transport`` for cleartext HTTP/1.1 upstreams on an HTTP server's own network
/// threads: the daemon's fastest path to a sidecar or an upstream on a private network.
///
/// The transport is built with the `EventLoopGroup` its callers run on (the group of the
/// `HTTPServer` whose handlers call it). A request sent from one of those loops (a request
/// handler) to an `http` URL whose host is a numeric address, `localhost` or a DNS name is
/// written and read on that loop, over a keep-alive connection from that loop's own pool, and its answer is
/// parsed by http-parser (the C parser Node.js used for a decade). No other thread, lock or
/// library call stands between the handler and the socket, so a proxied request costs a fraction
/// of a general-purpose client's work per transfer.
///
/// A host name is resolved (by `resolver`, on a thread of its own) when a new connection needs
/// it, and its address kept for ``Configuration-swift.struct/addressLifetime``.
///
/// Everything else goes to `fallback`, unchanged: `https`, URLs with user information or a
/// percent-encoded host, and requests from any other thread. Each is counted by reason
/// (``fallbackCounts``) and the first of each reason is logged. Give it a `CurlTransport` on the
/// same loops for TLS and HTTP/2:
///
/// ```swift
/// let loops = try EventLoopGroup(name: "http")
/// let curl = CurlTransport(eventLoops: loops)
/// let transport = HTTP1Transport(eventLoops: loops, fallback: curl)
/// // ... from a request handler:
/// let response = try await transport.send(HTTPRequest(method: .get, url: upstream, timeout: .seconds(2)))
/// await transport.shutdown()
/// await curl.shutdown()
/// ```
///
/// On the fast path, the headers are sent exactly as given, plus `Host` unless the request sets
/// it and a `Content-Length` for a body (and for `POST`, `PUT` and `PATCH` without one); no
/// header is added beyond those. Interim 1xx answers are skipped, `HEAD` reads no body, a chunked
/// or close-delimited body is read to its end, and redirects are returned as they are. A request
/// whose connection closes before its answer is complete, a reused one the peer closed while it
/// sat idle included, fails with ``TransportError/Code-swift.struct/connectionClosed`` and is
/// never sent again by the transport: the caller's retry policy (`RetryMiddleware`) decides from
/// the case's retry class, and signs the new attempt afresh.
public final class HTTP1Transport: Transport {
    /// The settings of the fast path.
    public let configuration: Configuration
    /// The loops the fast path runs on: a request sent from one of them runs there.
    public let eventLoops: EventLoopGroup
    /// The transport that takes every request the fast path does not.
    public let fallback: any Transport
    private let clients: IOEventLoopMembers<HTTP1LoopClient>
    private let fallbacks: HTTP1FallbackCounter

    /// Creates a transport.
    /// - Parameters:
    ///   - configuration: Timeouts, pool size and limits of the fast path; see ``Configuration``.
    ///   - eventLoops: The loops its callers run on (an HTTP server's); it is not stopped by the
    ///     transport.
    ///   - resolver: Resolves host names for new connections; the system's by default.
    ///   - fallback: The transport for `https` and for calls from other threads; it is
    ///     not shut down by ``shutdown(gracePeriod:)``, its owner does that.
    ///   - logger: Where the first request sent to the fallback for each reason is logged.
    public init(
        configuration: Configuration = Configuration(), eventLoops: EventLoopGroup,
        resolver: any HTTP1Resolver = SystemResolver(), fallback: any Transport,
        logger: Logger = Logger(label: "swifty.http1-transport")
    ) {
        self.configuration = configuration
        self.eventLoops = eventLoops
        self.fallback = fallback
        fallbacks = HTTP1FallbackCounter(logger: logger)
        clients = IOEventLoopMembers { loop, onClose in
            HTTP1LoopClient(loop: loop, configuration: configuration, resolver: resolver, onClose: onClose)
        }
    }

    deinit {
        clients.shutdownWithoutWaiting()
    }

    /// Whether this transport's fast path takes `request` when it is sent from an event loop's
    /// thread: an `http` URL with a numeric host, `localhost` or a DNS name, and no user
    /// information.
    public static func takesOnEventLoop(_ request: HTTPRequest) -> Bool {
        HTTP1Target.parse(request.urlString) != nil
    }

    /// Sends one request and returns its response.
    ///
    /// - Throws: `TransportError` with code `invalidRequest` (a method or header name that is not
    ///   a token, a header value with a line break), `timedOut` (after `request.timeout`, or the
    ///   configured default; also when no connection was made within the connect timeout),
    ///   `cancelled` (the calling task was cancelled; the connection is closed at once),
    ///   `connectionFailed`, `connectionClosed`, `responseTooLarge` (see
    ///   ``Configuration/maxResponseBodySize``), `shutDown`, or `other` (an answer that is not
    ///   HTTP/1.x); or whatever `fallback` throws for the requests it takes.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let loop = configuration.usesCallerEventLoop ? eventLoops.loopOfCaller : nil
        guard let target = HTTP1Target.parse(request.urlString) else {
            fallbacks.record(FallbackReason.of(url: request.urlString))
            return try await fallback.send(request)
        }
        guard let loop else {
            fallbacks.record(.offLoop)
            return try await fallback.send(request)
        }
        let bytes = try HTTP1RequestHead.bytes(of: request, to: target)
        let exchange = HTTP1Exchange(
            bytes: bytes, target: target, method: request.method,
            timeout: request.timeout ?? configuration.defaultTimeout)
        if Task.isCancelled { throw TransportError(.cancelled, "\(exchange.summary) was cancelled before it was sent") }
        guard let client = clients.member(for: loop) else {
            throw TransportError(.shutDown, "the transport was shut down before \(exchange.summary)")
        }
        return try await withTaskCancellationHandler {
            // Unsafe (no checking canary to allocate): resumed exactly once, by
            // `HTTP1LoopClient.finish` or its refusal after a shutdown; both clear the
            // continuation, so no later path can resume it again.
            try await withUnsafeThrowingContinuation { continuation in
                // Still on the loop's thread: nothing suspended since `loopOfCaller`.
                exchange.continuation = continuation
                client.submit(exchange)
            }
        } onCancel: {
            client.loop.execute { client.cancel(exchange) }
        }
    }

    /// Stops the fast path: new requests on it fail with `shutDown` at once, requests in flight
    /// may finish within `gracePeriod` and then fail with `shutDown`; returns when every
    /// connection is closed. The fallback keeps running. Calling it again returns at once.
    /// - Parameter gracePeriod: How long requests in flight may still take. Default zero.
    public func shutdown(gracePeriod: Duration = .zero) async {
        await clients.shutdown(gracePeriod: gracePeriod)
    }

    /// How many requests went to the fallback, for each reason (every reason, zeros included).
    public var fallbackCounts: [FallbackReason: Int] { fallbacks.counts }

    /// How many event loops this transport currently runs requests on (for tests).
    package var eventLoopCount: Int { clients.count }
}
