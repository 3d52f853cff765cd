/// A failure to exchange a request and response, thrown by every ``Transport``.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was. A struct of constants, so new codes do not break users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The request's timeout passed before the response was complete.
        public static let timedOut = Code("timed out")
        /// The calling task was cancelled.
        public static let cancelled = Code("cancelled")
        /// No connection could be made (refused, unreachable, DNS failure).
        public static let connectionFailed = Code("connection failed")
        /// The connection closed or reset before the response was complete.
        public static let connectionClosed = Code("connection closed")
        /// The response body was larger than the transport's configured limit.
        public static let responseTooLarge = Code("response too large")
        /// The request could not be sent as given (bad URL, unsupported scheme).
        public static let invalidRequest = Code("invalid request")
        /// The transport was shut down.
        public static let shutDown = Code("shut down")
        /// Any other failure; see ``TransportError/message``.
        public static let other = Code("transport failure")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure it was.
    public var code: Code
    /// A description for a person, with what the library reported.
    public var message: String
    /// The error the underlying library raised, when there was one.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
