/// A ``TransportConformance`` check that a transport did not pass.
public struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// The check that failed.
    public var check: TransportConformance.Check
    /// What was expected and what the transport did instead.
    public var message: String

    /// Creates a failure.
    public init(check: TransportConformance.Check, message: String) {
        self.check = check
        self.message = message
    }

    /// `conformance check <name> failed: <message>`.
    public var description: String { "conformance check \(check) failed: \(message)" }
}
