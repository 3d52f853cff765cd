/// Why the sandbox upstreams could not be set up, started or configured.
///
/// Messages name what is wrong and what to do; they never contain key material.
public struct SandboxError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was. A struct of constants, so new codes do not break users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A key is not usable (bad id or tag, too short, wrong service).
        public static let invalidKey = Code("invalid key")
        /// Key files could not be read or written.
        public static let keyFile = Code("key file")
        /// A setting is out of range (a fault rate, a latency, a port, the host).
        public static let invalidConfiguration = Code("invalid configuration")
        /// A server could not listen.
        public static let startFailed = Code("start failed")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure it was.
    public var code: Code
    /// The upstream concerned, when there is one.
    public var service: SandboxService?
    /// What went wrong, for a person to act on.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, service: SandboxService? = nil, _ message: String) {
        self.code = code
        self.service = service
        self.message = message
    }

    /// `code (service): message`.
    public var description: String {
        "\(code)\(service.map { " (\($0) upstream)" } ?? ""): \(message)"
    }
}
