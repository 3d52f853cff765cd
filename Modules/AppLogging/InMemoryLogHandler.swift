import Synchronization

/// A handler that keeps every record in memory, for tests.
///
/// Copies share one store, so a test can hand the handler to the code under test and read
/// ``records`` afterwards.
public struct InMemoryLogHandler: LogHandler {
    private final class Store: Sendable {
        let records = Mutex<[LogRecord]>([])
    }

    private let store = Store()

    /// Creates an empty handler.
    public init() {}

    /// Stores the record.
    public func log(_ record: LogRecord) {
        store.records.withLock { $0.append(record) }
    }

    /// Every record stored so far, oldest first.
    public var records: [LogRecord] {
        store.records.withLock { $0 }
    }

    /// Every record rendered as the JSON line ``StreamLogHandler`` would write.
    public var renderedLines: [String] {
        records.map { LogLineFormatter.json($0) }
    }
}
