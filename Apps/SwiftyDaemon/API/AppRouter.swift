import AppLogging
import EventLoops
import Foundation
import HTTPServer
import HTTPTypes
import ServiceCore
import Synchronization

/// Builds the app API's handler around the current configuration generation's routes
/// (``DaemonGenerations``): every request is wrapped so that it gets a request id, a trace of its
/// upstream calls, metrics and one JSON access-log line.
///
/// The generation's settings apply per request: the proxies whose `Forwarded` /
/// `X-Forwarded-For` are believed (``ClientAddress``), the most requests handled at once, and
/// each request's deadline over all its upstream calls (``RequestDeadline``).
struct AppRouter {
    let generations: DaemonGenerations
    let metrics: Metrics
    let accessLog: Logger
    /// The access log's lines, batched per loop turn, when they can go to its handler directly
    /// (``AccessLogLine``).
    private let accessLogBatch: AccessLogBatch?

    /// - Parameters:
    ///   - generations: The generation each request is served with.
    ///   - eventLoops: The app server's loops, whose access-log lines are batched per turn.
    init(generations: DaemonGenerations, metrics: Metrics, accessLog: Logger, eventLoops: EventLoopGroup? = nil) {
        self.generations = generations
        self.metrics = metrics
        self.accessLog = accessLog
        accessLogBatch = AccessLogLine.directStream(for: accessLog).map {
            AccessLogBatch(stream: $0, eventLoops: eventLoops)
        }
    }

    /// The server's handler: the router, wrapped so that every request (matched or not) gets
    /// a request id, a trace of its upstream calls, its deadline, metrics under its route pattern
    /// and one access-log line.
    ///
    /// Each request is served whole by the generation current when it arrived, even when a
    /// reload swaps in another meanwhile. Past the generation's `maxInFlight` requests in flight,
    /// a request is answered 503 with `Retry-After` at once (route `shed`): one atomic add tells,
    /// no lock and no queue.
    func makeHandler() -> @Sendable (ServerRequest) async -> ServerResponse {
        let generations = self.generations
        let metrics = self.metrics
        let accessLog = self.accessLog
        let accessLogBatch = self.accessLogBatch
        let clock = MonotonicClock()
        return { request in
            let generation = generations.acquire()
            defer { generations.release(generation) }
            let maxInFlight = generation.maxInFlight
            let trace = RequestTrace(requestID: Self.requestID(for: request))
            return await RequestTrace.$current.withValue(trace) {
                let start = ContinuousClock.now
                var response: ServerResponse
                if metrics.inFlight.wrappingAdd(1, ordering: .relaxed).newValue > maxInFlight {
                    metrics.inFlight.subtract(1, ordering: .relaxed)
                    metrics.shed.increment(LabelValues())
                    trace.matched("shed")
                    response = AppProblem.shed(limit: maxInFlight).response
                } else {
                    response = await RequestDeadline.run(within: generation.requestDeadline, clock: clock) {
                        await generation.router.handle(request)
                    }
                    metrics.inFlight.subtract(1, ordering: .relaxed)
                }
                response.headers.add(name: "X-Request-ID", value: trace.requestID)
                Self.finish(
                    request, response, route: trace.route ?? "unmatched", trace: trace, start: start,
                    metrics: metrics, accessLog: accessLog, accessLogBatch: accessLogBatch,
                    trustedProxies: generation.trustedProxies
                )
                return response
            }
        }
    }

    /// What the app server reports of its own refusals: counted by reason and written to the
    /// access log like a request (route `refused`, no header values).
    func makeRefusalObserver() -> @Sendable (RefusedRequest) -> Void {
        let metrics = self.metrics
        let accessLog = self.accessLog
        let accessLogBatch = self.accessLogBatch
        return { refused in
            metrics.refusals.increment(LabelValues(refused.reason))
            let seconds =
                Double(refused.duration.components.seconds) + Double(refused.duration.components.attoseconds) / 1e18
            let line = AccessLogLine(
                requestID: "-", method: refused.method.isEmpty ? "-" : refused.method, route: "refused",
                status: String(refused.status), durationMilliseconds: Self.milliseconds(seconds), upstream: [],
                refusal: refused.reason)
            if let accessLogBatch {
                let label = accessLog.label
                accessLogBatch.write { line.append(to: &$0, date: Date(), label: label) }
            } else {
                accessLog.info("request", metadata: line.metadata)
            }
        }
    }

    /// The methods that get a metric label of their own; any other is `other`, so no client can
    /// add label values.
    static func methodLabel(_ method: String) -> String {
        switch method {
        case "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS": method
        default: "other"
        }
    }

    private static func finish(
        _ request: ServerRequest,
        _ response: ServerResponse,
        route: String,
        trace: RequestTrace,
        start: ContinuousClock.Instant,
        metrics: Metrics,
        accessLog: Logger,
        accessLogBatch: AccessLogBatch?,
        trustedProxies: Set<String>
    ) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let status = String(response.status)
        metrics.requests.increment(LabelValues(route, Self.methodLabel(request.method), status))
        metrics.requestDuration.observe(LabelValues(route), seconds)
        var client: String?
        if !trustedProxies.isEmpty {
            client = ClientAddress.resolve(
                peer: request.remoteAddress, headers: request.headers, trusted: trustedProxies)
        }
        // A constant, so the batch's closure reads it where it is instead of copying it.
        let line = AccessLogLine(
            requestID: trace.requestID, method: request.method, route: route, status: status,
            durationMilliseconds: Self.milliseconds(seconds), upstream: trace.recorded, client: client
        )
        if let accessLogBatch {
            let label = accessLog.label
            accessLogBatch.write { line.append(to: &$0, date: Date(), label: label) }
        } else {
            // The metadata is built only when the line is written (an autoclosure).
            accessLog.info("request", metadata: line.metadata)
        }
    }

    /// `seconds` as milliseconds with two decimals (`12.34`).
    ///
    /// Written digit by digit into the string's own storage (one allocation, no interpolation):
    /// it is formatted for every request's access-log line. Negative durations count as zero and
    /// durations past a million seconds as a million seconds.
    static func milliseconds(_ seconds: Double) -> String {
        let clamped = seconds.isNaN ? 0 : min(max(0, seconds), 1_000_000)
        let hundredths = UInt64((clamped * 100_000).rounded())
        let whole = hundredths / 100
        let fraction = hundredths % 100
        var digitCount = 1
        var rest = whole / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        return String(unsafeUninitializedCapacity: digitCount + 3) { out in
            var value = whole
            for index in stride(from: digitCount - 1, through: 0, by: -1) {
                out[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            out[digitCount] = UInt8(ascii: ".")
            out[digitCount + 1] = UInt8(ascii: "0") + UInt8(fraction / 10)
            out[digitCount + 2] = UInt8(ascii: "0") + UInt8(fraction % 10)
            return digitCount + 3
        }
    }

    /// The client's `X-Request-ID` when it is a sane token (1-64 of `A-Z a-z 0-9 - _ .`),
    /// otherwise a fresh one.
    static func requestID(for request: ServerRequest) -> String {
        if let given = request.headers["x-request-id"], (1...64).contains(given.utf8.count),
            given.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E
            })
        {
            return given
        }
        return RequestID.random()
    }
}
