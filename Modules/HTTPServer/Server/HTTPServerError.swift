/// A failure to configure, start or run an ``HTTPServer``.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A configuration value is out of range or malformed.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// The daemon could not be started (for example the address is in use).
        public static let startFailed = Code("startFailed")
        /// ``HTTPServer/start()`` was called on a server that is running or was shut down.
        public static let invalidState = Code("invalidState")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What failed and what to do about it.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: What failed and what to do about it.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message.
    public var description: String { "HTTPServerError.\(code): \(message)" }
}
