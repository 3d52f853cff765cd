/// A part of a ``ServiceGroup`` failed: which part, what went wrong, and the underlying error.
public struct ServiceGroupError: Error, CustomStringConvertible {
    /// What failed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let rawValue: String

        /// A part's ``LifecycleService/start()`` threw; the parts started before it were stopped.
        public static let startFailed = Code(rawValue: "startFailed")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// What failed.
    public let code: Code
    /// The ``LifecycleService/name`` of the part that failed.
    public let service: String
    /// The error the part threw.
    public let underlying: any Error

    /// Creates an error for the part named `service`.
    /// - Parameters:
    ///   - code: What failed.
    ///   - service: The failing part's name.
    ///   - underlying: The error the part threw.
    public init(code: Code, service: String, underlying: any Error) {
        self.code = code
        self.service = service
        self.underlying = underlying
    }

    /// For example `admin server failed to start: address already in use`.
    public var description: String {
        switch code {
        case .startFailed: "\(service) failed to start: \(underlying)"
        default: "\(service) failed (\(code)): \(underlying)"
        }
    }
}
