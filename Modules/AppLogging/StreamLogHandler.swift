#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A handler that writes one line per record to standard error or standard output.
///
/// Each line is written with a single `write(2)`, so lines from concurrent tasks do not interleave.
public struct StreamLogHandler: LogHandler {
    /// Where lines go.
    public enum Stream: Sendable {
        /// File descriptor 2.
        case standardError
        /// File descriptor 1.
        case standardOutput
    }

    /// How a record becomes a line.
    public enum Format: Sendable {
        /// `2026-11-30T06:00:00Z info swiftyd: message key=value`.
        case text
        /// One JSON object per line, with `ts`, `level`, `label`, `msg` and the metadata.
        case json
    }

    private let descriptor: Int32
    private let format: Format

    /// Creates a handler.
    /// - Parameters:
    ///   - stream: Where lines go.
    ///   - format: How a record becomes a line.
    public init(stream: Stream, format: Format) {
        self.descriptor = stream == .standardError ? 2 : 1
        self.format = format
    }

    /// Writes the record as one line.
    public func log(_ record: LogRecord) {
        switch format {
        case .json: writeLine(LogLineFormatter.jsonBytes(record, newline: true))
        case .text: writeLine(Array((LogLineFormatter.text(record) + "\n").utf8))
        }
    }

    /// Whether records become JSON lines (``Format/json``).
    package var writesJSON: Bool { format == .json }

    /// Writes a finished line (its newline included) with one `write(2)`, as ``log(_:)`` does.
    package func writeLine(_ line: [UInt8]) {
        line.withUnsafeBytes { writeBytes($0) }
    }

    /// Writes finished lines (newlines included) to the stream, with as few `write(2)` calls as
    /// the system allows: one, unless it takes part of them.
    package func writeBytes(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        // Bounded: each iteration writes at least one byte or gives up.
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written <= 0 { break }
            offset += written
        }
    }
}
