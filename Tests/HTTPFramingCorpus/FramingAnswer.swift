/// One answer a framing case expects.
public enum FramingAnswer: Sendable, Equatable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The answer of the target's handler to a request that reaches it; its status depends on the
    /// target (``FramingTarget/servedStatus``).
    case served
    /// A status the server itself answers with on every target: an interim 1xx or a refusal.
    case status(Int)

    /// A literal status is the server's own answer.
    public init(integerLiteral value: Int) { self = .status(value) }

    /// The status on `target`.
    public func status(on target: FramingTarget) -> Int {
        switch self {
        case .served: target.servedStatus
        case .status(let status): status
        }
    }

    /// `served` or the status.
    public var description: String {
        switch self {
        case .served: "served"
        case .status(let status): "\(status)"
        }
    }
}
