import Foundation

/// A logger shaped like swift-log's `Logger`: a label, a level, metadata, and a handler.
///
/// Create one per component with ``init(label:)``; the handler comes from ``LoggingSystem``
/// unless one is given. Messages below ``logLevel`` cost only a comparison: the message and
/// metadata are autoclosures.
///
/// ```swift
/// var logger = Logger(label: "swiftyd.http")
/// logger[metadataKey: "module"] = "user"
/// logger.info("request served", metadata: ["status": "200"])
/// ```
public struct Logger: Sendable {
    /// The component the logger belongs to, for example `swiftyd.http`.
    public let label: String

    /// The handler that receives every emitted record.
    public var handler: any LogHandler

    /// Metadata attached to every record this logger emits.
    public var metadata: Metadata

    /// The lowest level this logger emits.
    public var logLevel: Level

    /// Creates a logger whose handler comes from ``LoggingSystem``.
    /// - Parameter label: The component the logger belongs to.
    public init(label: String) {
        self.init(label: label, handler: LoggingSystem.makeHandler(label: label))
    }

    /// Creates a logger with an explicit handler.
    /// - Parameters:
    ///   - label: The component the logger belongs to.
    ///   - handler: Where records go.
    ///   - logLevel: The lowest level emitted; `.info` unless given.
    public init(label: String, handler: any LogHandler, logLevel: Level = .info) {
        self.label = label
        self.handler = handler
        self.metadata = [:]
        self.logLevel = logLevel
    }

    /// Reads or sets one metadata value attached to every record.
    public subscript(metadataKey key: String) -> MetadataValue? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Emits a record at `level` if the logger's level allows it.
    /// - Parameters:
    ///   - level: The record's severity.
    ///   - message: The message, built only when the record is emitted.
    ///   - metadata: Extra metadata for this record; it wins over the logger's own on key clashes.
    public func log(
        level: Level,
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> Metadata? = nil,
        source: String? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        guard level >= logLevel else { return }
        var merged = self.metadata
        if let extra = metadata() {
            if merged.isEmpty {
                merged = extra
            } else {
                merged.merge(extra) { _, new in new }
            }
        }
        handler.log(
            LogRecord(
                date: Date(),
                level: level,
                label: label,
                message: message(),
                metadata: merged,
                source: source ?? label,
                file: file,
                line: line
            )
        )
    }

    /// Emits a `trace` record.
    public func trace(
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> Metadata? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        log(level: .trace, message(), metadata: metadata(), file: file, line: line)
    }

    /// Emits a `debug` record.
    public func debug(
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> Metadata? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        log(level: .debug, message(), metadata: metadata(), file: file, line: line)
    }

    /// Emits an `info` record.
    public func info(
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> Metadata? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        log(level: .info, message(), metadata: metadata(), file: file, line: line)
    }

    /// Emits a `notice` record.
    public func notice(
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> Metadata? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        log(level: .notice, message(), metadata: metadata(), file: file, line: line)
    }

    /// Emits a `warning` record.
    public func warning(
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> Metadata? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        log(level: .warning, message(), metadata: metadata(), file: file, line: line)
    }

    /// Emits an `error` record.
    public func error(
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> Metadata? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        log(level: .error, message(), metadata: metadata(), file: file, line: line)
    }

    /// Emits a `critical` record.
    public func critical(
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> Metadata? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        log(level: .critical, message(), metadata: metadata(), file: file, line: line)
    }
}
