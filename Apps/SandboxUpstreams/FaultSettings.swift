/// Faults one sandbox upstream injects into its answers, for resilience tests and benchmarks.
///
/// Faults apply only to requests whose signature verified (a bad signature is always a plain
/// 401). For each such request the upstream waits ``latency``, then, drawing from a seeded
/// generator, resets the connection before processing with probability ``resetRate``, else
/// processes the request and resets the connection instead of answering with probability
/// ``resetAfterProcessingRate``, else answers 503 with probability ``errorRate`` (with
/// `X-Sandbox-Fault: error`), else answers normally.
///
/// A reset is a TCP reset with no answer at all: the caller sees its connection reset. Before
/// processing nothing happened (no charge stored); after processing the request took effect
/// (a payment is charged) but its answer is lost, which only an idempotent retry can recover.
public struct FaultSettings: Sendable, Equatable, CustomStringConvertible {
    /// The longest latency accepted: 30 s (the server answers 504 for handlers slower than 60 s).
    public static let maximumLatency: Duration = .seconds(30)

    /// Added to every verified request before it is answered.
    public var latency: Duration
    /// The fraction of verified requests answered with 503, 0...1.
    public var errorRate: Double
    /// The fraction of verified requests whose connection is reset before they are processed, 0...1.
    public var resetRate: Double
    /// The fraction of verified requests that are processed and then have their connection reset
    /// instead of answered, 0...1.
    public var resetAfterProcessingRate: Double

    /// No faults.
    public static let none = FaultSettings()

    /// Creates settings; the defaults inject nothing.
    public init(
        latency: Duration = .zero, errorRate: Double = 0, resetRate: Double = 0, resetAfterProcessingRate: Double = 0
    ) {
        self.latency = latency
        self.errorRate = errorRate
        self.resetRate = resetRate
        self.resetAfterProcessingRate = resetAfterProcessingRate
    }

    /// Whether any fault is set.
    public var isActive: Bool {
        latency > .zero || errorRate > 0 || resetRate > 0 || resetAfterProcessingRate > 0
    }

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
        guard (0...1).contains(resetAfterProcessingRate) else {
            throw SandboxError(
                .invalidConfiguration, "resetAfterProcessingRate \(resetAfterProcessingRate) is outside 0...1")
        }
    }

    /// `latency 50 ms, error rate 0.1, reset rate 0, reset after processing rate 0`.
    public var description: String {
        let milliseconds = latency.components.seconds * 1000 + latency.components.attoseconds / 1_000_000_000_000_000
        return "latency \(milliseconds) ms, error rate \(errorRate), reset rate \(resetRate), "
            + "reset after processing rate \(resetAfterProcessingRate)"
    }
}
