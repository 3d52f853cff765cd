import Foundation
public import Synchronization

/// The daemon's metrics, rendered in the Prometheus text format 0.0.4 at `/metrics`.
///
/// Families are declared once. An observation takes no lock: it finds its series without one
/// (``SeriesRegistry``) and adds to atomics. Label values are escaped as the format requires.
public final class Metrics: Sendable {
    /// Upper bounds (seconds) of the latency histogram buckets.
    public static let latencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    /// App API requests by route, method and status.
    public let requests = CounterFamily(
        name: "swiftyd_http_requests_total",
        help: "App API requests by route, method and status.",
        labels: ["route", "method", "status"]
    )
    /// Requests and connections the app server refused itself (framing, limits, deadlines), by
    /// reason (a closed set: `HTTPServer.refusalReasons`).
    public let refusals = CounterFamily(
        name: "swiftyd_http_refusals_total",
        help: "Requests and connections the app server refused itself, by reason.",
        labels: ["reason"]
    )
    /// App API latency by route.
    public let requestDuration = HistogramFamily(
        name: "swiftyd_http_request_duration_seconds",
        help: "App API request latency by route, in seconds.",
        labels: ["route"],
        buckets: latencyBuckets
    )
    /// Upstream calls by module, operation and outcome (`ok` or an error kind).
    public let upstreamCalls = CounterFamily(
        name: "swiftyd_upstream_requests_total",
        help: "Upstream calls by module, operation and outcome.",
        labels: ["module", "operation", "outcome"]
    )
    /// Upstream latency by module.
    public let upstreamDuration = HistogramFamily(
        name: "swiftyd_upstream_request_duration_seconds",
        help: "Upstream call latency by module, in seconds.",
        labels: ["module"],
        buckets: latencyBuckets
    )
    /// Upstream errors by module and kind: each failed attempt (`unavailable`, `rate_limited`,
    /// `server_error`, `refused`, `reset`, `timeout`, ...) and each call refused before it was
    /// sent (`circuit_open`, `overloaded`, `deadline`); see ``UpstreamFailureKind``.
    public let upstreamErrors = CounterFamily(
        name: "swiftyd_upstream_errors_total",
        help: "Upstream errors by module and kind: failed attempts and calls refused before sending.",
        labels: ["module", "kind"]
    )
    /// Upstream attempts by module: first attempts and retries.
    public let upstreamAttempts = CounterFamily(
        name: "swiftyd_upstream_attempts_total",
        help: "Upstream attempts by module, retries included.",
        labels: ["module"]
    )
    /// Upstream retries by module: attempts after a call's first.
    public let upstreamRetries = CounterFamily(
        name: "swiftyd_upstream_retries_total",
        help: "Upstream attempts after a call's first, by module.",
        labels: ["module"]
    )
    /// App requests answered 503 at once because ``DaemonConfiguration/maxInFlight`` were in
    /// flight.
    public let shed = CounterFamily(
        name: "swiftyd_http_requests_shed_total",
        help: "App requests answered 503 at once because the in-flight limit was reached.",
        labels: []
    )

    /// Bearer-token cache lookups by result: `hit` or `miss` (a store that cannot be reached
    /// answers a miss).
    public let tokenCacheLookups = CounterFamily(
        name: "swiftyd_token_cache_lookups_total",
        help: "Bearer-token cache lookups by result (hit or miss).",
        labels: ["result"]
    )

    /// Configuration reloads (SIGHUP) by result: `success` or `failure` (the running
    /// configuration kept).
    public let configReloads = CounterFamily(
        name: "swiftyd_config_reloads_total",
        help: "Configuration reloads by result; on failure the running configuration is kept.",
        labels: ["result"]
    )

    /// App API requests being handled now.
    public let inFlight = Atomic<Int>(0)

    /// When the configuration in use was loaded, in milliseconds since 1970: at start, then at
    /// each successful reload.
    public let lastConfigLoadMilliseconds = Atomic<Int64>(0)

    /// Counters kept by the transports: requests a transport handed to its fallback, by
    /// transport and reason; each source is read when the metrics are rendered.
    private let fallbackSources = Mutex<[(transport: String, read: @Sendable () -> [(reason: String, count: Int)])]>([])
    /// Each module's breakers and bulkhead, read when the metrics are rendered.
    private let resilienceSources = Mutex<[(module: String, read: @Sendable () -> ResilienceGauges)]>([])
    /// The shared-state stores' health (rate limits, token cache), read when rendered.
    private let sharedStateSources = Mutex<[SharedStateHealth]>([])

    /// Records that the configuration in use was loaded now (at start or by a reload).
    func configurationLoaded() {
        lastConfigLoadMilliseconds.store(Int64((Date().timeIntervalSince1970 * 1000).rounded()), ordering: .relaxed)
    }

    /// Creates empty metrics.
    public init() {
        // Both reload series exist from the start, so a rate over them is defined at once.
        configReloads.increment(LabelValues("success"), by: 0)
        configReloads.increment(LabelValues("failure"), by: 0)
    }

    /// Every family in the text format 0.0.4.
    public func render() -> String {
        var text = "# HELP swiftyd_http_requests_in_flight App API requests being handled now.\n"
        text += "# TYPE swiftyd_http_requests_in_flight gauge\n"
        text += "swiftyd_http_requests_in_flight \(inFlight.load(ordering: .relaxed))\n"
        requests.render(into: &text)
        refusals.render(into: &text)
        requestDuration.render(into: &text)
        upstreamCalls.render(into: &text)
        upstreamDuration.render(into: &text)
        upstreamErrors.render(into: &text)
        upstreamAttempts.render(into: &text)
        upstreamRetries.render(into: &text)
        shed.render(into: &text)
        configReloads.render(into: &text)
        let loaded = "swiftyd_config_last_reload_success_timestamp_seconds"
        text += "# HELP \(loaded) When the configuration in use was loaded (start or reload), in Unix seconds.\n"
        text += "# TYPE \(loaded) gauge\n"
        text += loaded + " " + PrometheusText.number(Double(lastConfigLoadMilliseconds.load(ordering: .relaxed)) / 1000)
        text += "\n"
        renderFallbacks(into: &text)
        renderResilience(into: &text)
        tokenCacheLookups.render(into: &text)
        renderSharedState(into: &text)
        return text
    }

    /// Shows a shared-state store's failed calls as `swiftyd_shared_state_errors_total{store}` and
    /// whether its last call answered as `swiftyd_shared_state_available{store}` (1 or 0).
    func addSharedState(_ health: SharedStateHealth) {
        sharedStateSources.withLock { $0.append(health) }
    }

    private func renderSharedState(into text: inout String) {
        let sources = sharedStateSources.withLock { $0 }.sorted { $0.store < $1.store }
        let errors = "swiftyd_shared_state_errors_total"
        text += "# HELP \(errors) Failed calls to a shared-state store; the request went on without it.\n"
        text += "# TYPE \(errors) counter\n"
        for health in sources {
            text += errors + PrometheusText.labels(["store"], [health.store]) + " \(health.errorCount)\n"
        }
        let available = "swiftyd_shared_state_available"
        text += "# HELP \(available) Whether a shared-state store's last call answered (1) or failed (0).\n"
        text += "# TYPE \(available) gauge\n"
        for health in sources {
            text += available + PrometheusText.labels(["store"], [health.store]) + " \(health.isAvailable ? 1 : 0)\n"
        }
    }

    /// Shows a module's breakers as `swiftyd_upstream_circuit_state{module,host}` (0 closed,
    /// 1 half-open, 2 open) and its calls in flight as `swiftyd_upstream_in_flight{module}`;
    /// `read` is called at each render. It replaces the module's earlier source (a reload
    /// builds the module's stack anew).
    public func addResilienceSource(module: String, _ read: @escaping @Sendable () -> ResilienceGauges) {
        resilienceSources.withLock { sources in
            sources.removeAll { $0.module == module }
            sources.append((module, read))
        }
    }

    private func renderResilience(into text: inout String) {
        let sources = resilienceSources.withLock { $0 }.sorted { $0.module < $1.module }
        let readings = sources.map { ($0.module, $0.read()) }
        let state = "swiftyd_upstream_circuit_state"
        text += "# HELP \(state) Circuit breaker state per module host: 0 closed, 1 half-open, 2 open.\n"
        text += "# TYPE \(state) gauge\n"
        for (module, gauges) in readings {
            for breaker in gauges.breakers {
                text +=
                    state + PrometheusText.labels(["module", "host"], [module, breaker.host])
                    + " \(ResilienceGauges.value(ofBreakerState: breaker.state))\n"
            }
        }
        let inFlight = "swiftyd_upstream_in_flight"
        text += "# HELP \(inFlight) Upstream calls in flight per module (its concurrency limit's count).\n"
        text += "# TYPE \(inFlight) gauge\n"
        for (module, gauges) in readings {
            text += inFlight + PrometheusText.labels(["module"], [module]) + " \(gauges.inFlight)\n"
        }
    }

    /// Shows the requests `transport` handed to its fallback, by reason, as
    /// `swiftyd_transport_fallbacks_total{transport,reason}`; `read` is called at each render.
    /// It replaces the transport's earlier source (a reload makes the transports anew).
    public func addFallbackSource(
        transport: String, _ read: @escaping @Sendable () -> [(reason: String, count: Int)]
    ) {
        fallbackSources.withLock { sources in
            sources.removeAll { $0.transport == transport }
            sources.append((transport, read))
        }
    }

    private func renderFallbacks(into text: inout String) {
        let name = "swiftyd_transport_fallbacks_total"
        text += "# HELP \(name) Upstream requests a transport handed to its fallback, by reason.\n"
        text += "# TYPE \(name) counter\n"
        for source in fallbackSources.withLock({ $0 }) {
            for (reason, count) in source.read().sorted(by: { $0.reason < $1.reason }) {
                text +=
                    name + PrometheusText.labels(["transport", "reason"], [source.transport, reason]) + " \(count)\n"
            }
        }
    }
}
