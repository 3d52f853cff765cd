/// A test server (``LoopbackServer``, ``ScriptedSocketServer``) that could not be started.
public struct TestServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A socket could not be created, bound to 127.0.0.1 or listened on.
        public static let socketFailed = Code("socket failed")
        /// The HTTP server did not start.
        public static let serverFailed = Code("server failed")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// What failed, with the system's reason.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
