/// Receives the records a ``Logger`` emits.
///
/// Implement it to send records somewhere new; use ``StreamLogHandler`` for standard error or
/// standard output, ``InMemoryLogHandler`` in tests, and ``SwallowingLogHandler`` to drop them.
public protocol LogHandler: Sendable {
    /// Handles one record. Called on the emitting thread; must not block for long.
    func log(_ record: LogRecord)
}

/// A handler that drops every record.
public struct SwallowingLogHandler: LogHandler {
    /// Creates the handler.
    public init() {}

    /// Drops the record.
    public func log(_ record: LogRecord) {}
}
