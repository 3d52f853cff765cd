import Synchronization

/// The process-wide factory that gives new ``Logger`` values their handler.
///
/// Call ``bootstrap(_:)`` once at start-up (the daemon does); until then loggers write
/// human-readable lines to standard error.
public enum LoggingSystem {
    private static let factory = Mutex<@Sendable (String) -> any LogHandler>({ _ in
        StreamLogHandler(stream: .standardError, format: .text)
    })

    /// Replaces the factory that makes handlers for new loggers.
    /// - Parameter makeHandler: Called with a logger's label, returns its handler.
    public static func bootstrap(_ makeHandler: @escaping @Sendable (String) -> any LogHandler) {
        factory.withLock { $0 = makeHandler }
    }

    /// Makes the handler for a new logger with `label`.
    public static func makeHandler(label: String) -> any LogHandler {
        let make = factory.withLock { $0 }
        return make(label)
    }
}
