public import AppLogging

/// What a ``Middleware`` knows about the request besides its bytes.
public struct MiddlewareContext: Sendable {
    /// The feature module sending the request, for example `UserModule`.
    public var module: String
    /// The service case, for example `profile` (the case name only: associated values are
    /// not included, so secrets in them never reach logs).
    public var operation: String
    /// The attempt number, from 1. A retrying middleware increases it before calling `next`.
    public var attempt: Int
    /// An identifier for the logical request, the same across its attempts.
    public var requestID: String
    /// The retry class and timeout of the case.
    public var policy: RequestPolicy
    /// A logger with `module`, `operation` and `request_id` metadata set.
    ///
    /// For a context made by ``ServiceClient`` the metadata is added when the logger is first
    /// read, so a call whose middlewares never log does not build it.
    public var logger: Logger {
        get {
            if let given { return given }
            var logger = clientLogger
            logger[metadataKey: "module"] = .string(module)
            logger[metadataKey: "operation"] = .string(operation)
            logger[metadataKey: "request_id"] = .string(requestID)
            return logger
        }
        set { given = newValue }
    }

    /// The logger given to ``init(module:operation:attempt:requestID:policy:logger:)`` or set
    /// since; `nil` while ``logger`` is derived from ``clientLogger``.
    private var given: Logger?
    /// The client's logger, without the call's metadata.
    private let clientLogger: Logger
    /// Where the transport end of a ``ServiceClient``'s chain records each attempt; `nil` in a
    /// context made with the public initialiser.
    package var attempts: AttemptCounter?

    /// Creates a context.
    public init(
        module: String,
        operation: String,
        attempt: Int = 1,
        requestID: String,
        policy: RequestPolicy,
        logger: Logger
    ) {
        self.module = module
        self.operation = operation
        self.attempt = attempt
        self.requestID = requestID
        self.policy = policy
        self.given = logger
        self.clientLogger = logger
    }

    /// Creates a client's context, whose ``logger`` is `clientLogger` with the call's metadata.
    package init(
        module: String,
        operation: String,
        requestID: String,
        policy: RequestPolicy,
        clientLogger: Logger,
        attempts: AttemptCounter?
    ) {
        self.module = module
        self.operation = operation
        self.attempt = 1
        self.requestID = requestID
        self.policy = policy
        self.given = nil
        self.clientLogger = clientLogger
        self.attempts = attempts
    }
}

extension MiddlewareContext {
    /// The context of the service call the current task is sending, or `nil` outside one.
    ///
    /// ``ServiceClient`` binds it around the middleware chain, so a transport (such as the test
    /// kit's mock, which scripts answers per service case) can see which case it is sending.
    @TaskLocal public static var current: MiddlewareContext?
}
