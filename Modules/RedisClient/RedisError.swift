/// Every failure of a ``RedisClient``: what failed (a ``Code``), a message with its context, and
/// the server's error text for ``Code/server``. No message ever holds a password or a command's
/// arguments; commands are named by their first word.
public struct RedisError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let description: String

        private init(_ name: String) { description = name }

        /// No connection could be made (a name that does not resolve, refused, unreachable, no
        /// answer within the connect timeout, or Redis is in reconnect backoff after such a
        /// failure), or `SELECT` failed.
        public static let connectionFailed = Code("connectionFailed")
        /// Redis refused the credentials (`AUTH`).
        public static let authenticationFailed = Code("authenticationFailed")
        /// The connection closed or failed while the command was in flight: it may or may not
        /// have run.
        public static let connectionClosed = Code("connectionClosed")
        /// No complete reply within the command timeout; the connection was closed, so a late
        /// reply can never be taken for another command's.
        public static let timedOut = Code("timedOut")
        /// Redis answered with an error reply; see ``RedisError/serverMessage``.
        public static let server = Code("server")
        /// What Redis sent is not RESP (the reader refused it).
        public static let protocolError = Code("protocolError")
        /// More calls wait for a connection on this loop than the configuration allows.
        public static let poolExhausted = Code("poolExhausted")
        /// The client was shut down.
        public static let shutDown = Code("shutDown")
        /// The calling task was cancelled.
        public static let cancelled = Code("cancelled")
        /// The command or the configuration is not usable (an empty command, an unreadable
        /// password file, a port out of range).
        public static let invalidArgument = Code("invalidArgument")
    }

    /// What kind of failure it is.
    public let code: Code
    /// What failed, with its context.
    public let message: String
    /// The error reply, for ``Code/server`` and ``Code/authenticationFailed``.
    public let serverMessage: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, serverMessage: String? = nil) {
        self.code = code
        self.message = message
        self.serverMessage = serverMessage
    }

    /// The first word of the server's error (`WRONGTYPE`, `NOSCRIPT`, `ERR`), if any.
    public var serverErrorPrefix: Substring? {
        serverMessage?.split(separator: " ", maxSplits: 1).first
    }

    /// The code and the message.
    public var description: String { "redis \(code): \(message)" }
}
