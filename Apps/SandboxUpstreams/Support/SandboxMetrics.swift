import RequestSigning
import Synchronization

/// Counters the upstreams' `/metrics` show besides the replay guards' fill.
final class SandboxMetrics: Sendable {
    /// Calls to Redis that failed (unreachable, timed out, an error reply), by the store that
    /// made them.
    private let ledgerRedisErrors = Atomic<Int>(0)
    private let replayRedisErrors = Atomic<Int>(0)

    /// Counts a failed Redis call of the payment ledger.
    func countLedgerRedisError() {
        ledgerRedisErrors.wrappingAdd(1, ordering: .relaxed)
    }

    /// Counts a signature the replay store could not check.
    func countReplayRedisError() {
        replayRedisErrors.wrappingAdd(1, ordering: .relaxed)
    }

    /// The payment ledger's failed Redis calls so far.
    var ledgerRedisErrorCount: Int { ledgerRedisErrors.load(ordering: .relaxed) }

    /// The Prometheus text (format 0.0.4) of one upstream's `GET /metrics`: its replay guard's
    /// fill and capacity (with Redis, the guard that checks reads during an outage), and the
    /// sandbox's failed Redis calls (of the ledger, and of the replay guards, counted per
    /// signature the shared store could not check).
    func text(upstream: String, replayGuard: InMemoryReplayGuard?) -> String {
        var text = ""
        func metric(_ name: String, _ type: String, _ help: String, _ labels: String, _ value: Int) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name){\(labels)} \(value)\n"
        }
        // Upstream names are module names or `user`, `feed`, `payment`: no quote or backslash.
        let label = "upstream=\"\(upstream)\""
        if let replayGuard {
            metric(
                "swifty_sandbox_replay_nonces", "gauge", "Signature nonces the upstream's replay guard holds now.",
                label, replayGuard.count)
            metric(
                "swifty_sandbox_replay_capacity", "gauge",
                "The most nonces the upstream's replay guard holds; new signatures beyond it are refused with 503.",
                label, replayGuard.capacity)
        }
        metric(
            "swifty_sandbox_redis_errors_total", "counter",
            "Failed calls to the sandbox's Redis (unreachable, timed out, error replies), by store.",
            "store=\"ledger\"", ledgerRedisErrorCount)
        text += "swifty_sandbox_redis_errors_total{store=\"replay\"} \(replayRedisErrors.load(ordering: .relaxed))\n"
        return text
    }
}
