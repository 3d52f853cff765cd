/// A failure to sign a message or to build its signature base.
///
/// Messages name what was wrong (a component, a parameter, an OpenSSL call) and never contain
/// key material.
public struct SigningError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was. A struct of constants, so new codes do not break users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A key is unusable: too short, or a duplicate identifier in a key ring.
        public static let invalidKey = Code("invalid key")
        /// A covered component is not in the message (a header field, a query parameter, the
        /// authority).
        public static let missingComponent = Code("missing component")
        /// A component identifier is not valid for this message: an unknown derived component,
        /// an unknown or conflicting parameter, a value that cannot be put in a signature base.
        public static let invalidComponent = Code("invalid component")
        /// The signer's configuration is inconsistent (for example a repeated component or an
        /// invalid label).
        public static let invalidConfiguration = Code("invalid configuration")
        /// The signing key belongs to another module than the one sending the request.
        public static let moduleMismatch = Code("module mismatch")
        /// A message could not be read (for example a request target that is not a URI).
        public static let invalidMessage = Code("invalid message")
        /// OpenSSL reported a failure.
        public static let cryptoFailure = Code("crypto failure")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure it was.
    public var code: Code
    /// A description for a person: which component, parameter or call failed, and why.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
