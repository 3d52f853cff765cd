/// Faults one sandbox upstream injects into its answers, for resilience tests and benchmarks.
///
/// Faults apply only to requests whose signature verified (a bad signature is always a plain
/// 401). For each such request the upstream waits ``latency``, then, drawing from a seeded
/// generator, drops the connection with probability ``resetRate``, else answers 503 with
/// probability ``errorRate``, else answers normally.
///
/// The HTTP server cannot close a connection without answering, so a "reset" is a 503
/// `unavailable` problem with `Connection: close` and `X-Sandbox-Fault: reset` (an injected
/// error carries `X-Sandbox-Fault: error`).
public struct FaultSettings: Sendable, Equatable, CustomStringConvertible {
    /// The longest latency accepted: 30 s (the server answers 504 for handlers slower than 60 s).
    public static let maximumLatency: Duration = .seconds(30)

    /// Added to every verified request before it is answered.
    public var latency: Duration
    /// The fraction of verified requests answered with 503, 0...1.
    public var errorRate: Double
    /// The fraction of verified requests whose connection is dropped, 0...1.
    public var resetRate: Double

    /// No faults.
    public static let none = FaultSettings()

    /// Creates settings; the defaults inject nothing.
    public init(latency: Duration = .zero, errorRate: Double = 0, resetRate: Double = 0) {
        self.latency = latency
        self.errorRate = errorRate
        self.resetRate = resetRate
    }

    /// Whether any fault is set.
    public var isActive: Bool { latency > .zero || errorRate > 0 || resetRate > 0 }

    /// Checks the ranges.
    /// - Throws: ``SandboxError`` with code `invalidConfiguration` naming the bad field.
    public func validate() throws(SandboxError) {
        guard latency >= .zero, latency <= Self.maximumLatency else {
            throw SandboxError(.invalidConfiguration, "latency \(latency) is outside 0...\(Self.maximumLatency)")
        }
        guard (0...1).contains(errorRate) else {
            throw SandboxError(.invalidConfiguration, "errorRate \(errorRate) is outside 0...1")
        }
        guard (0...1).contains(resetRate) else {
            throw SandboxError(.invalidConfiguration, "resetRate \(resetRate) is outside 0...1")
        }
    }

    /// `latency 50 ms, error rate 0.1, reset rate 0`.
    public var description: String {
        let milliseconds = latency.components.seconds * 1000 + latency.components.attoseconds / 1_000_000_000_000_000
        return "latency \(milliseconds) ms, error rate \(errorRate), reset rate \(resetRate)"
    }
}
