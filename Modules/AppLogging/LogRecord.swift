public import Foundation

/// One emitted log record, as a ``LogHandler`` receives it.
public struct LogRecord: Sendable {
    /// When the record was emitted.
    public var date: Date
    /// The record's severity.
    public var level: Logger.Level
    /// The emitting logger's label.
    public var label: String
    /// The message.
    public var message: String
    /// The logger's metadata merged with the record's own.
    public var metadata: Logger.Metadata
    /// The component that emitted the record; the label unless given.
    public var source: String
    /// The file (`#fileID`) that emitted the record.
    public var file: String
    /// The line that emitted the record.
    public var line: UInt

    /// Creates a record.
    public init(
        date: Date,
        level: Logger.Level,
        label: String,
        message: String,
        metadata: Logger.Metadata,
        source: String,
        file: String,
        line: UInt
    ) {
        self.date = date
        self.level = level
        self.label = label
        self.message = message
        self.metadata = metadata
        self.source = source
        self.file = file
        self.line = line
    }
}
