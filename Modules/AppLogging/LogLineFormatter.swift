package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renders records as text or JSON lines.
///
/// Lines are built as bytes in one growing buffer: an access-log line per request is on the
/// daemon's hot path, so there is no string concatenation per field and no date formatter.
package enum LogLineFormatter {
    /// `2026-11-30T06:00:00.123Z info label: message key=value ...` (keys sorted).
    package static func text(_ record: LogRecord) -> String {
        var line = timestamp(record.date) + " " + record.level.rawValue + " " + record.label + ": " + record.message
        for (key, value) in record.metadata.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        return line
    }

    /// One JSON object: `ts`, `level`, `label`, `msg`, then the metadata keys (sorted).
    package static func json(_ record: LogRecord) -> String {
        String(decoding: jsonBytes(record, newline: false), as: UTF8.self)
    }

    /// ``json(_:)`` as UTF-8 bytes, optionally ending in a newline.
    package static func jsonBytes(_ record: LogRecord, newline: Bool) -> [UInt8] {
        var line = JSONLogLine(date: record.date, level: record.level, label: record.label, message: record.message)
        for (key, value) in record.metadata.sorted(by: { $0.key < $1.key }) {
            line.member(key, value)
        }
        return line.finish(newline: newline)
    }

    /// Appends a metadata value as JSON: strings quoted, arrays in order, objects with their keys sorted.
    package static func appendJSON(_ value: Logger.MetadataValue, to out: inout [UInt8]) {
        switch value {
        case .string(let string):
            appendQuoted(string, to: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendJSON(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let values):
            out.append(UInt8(ascii: "{"))
            for (index, element) in values.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendQuoted(element.key, to: &out)
                out.append(UInt8(ascii: ":"))
                appendJSON(element.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `string`'s UTF-8 bytes as they are.
    package static func append(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends `string` as a JSON string literal: `"`, `\` and control characters escaped
    /// (`\n`, `\r`, `\t`, otherwise `\u00XX`); everything else, non-ASCII included, as it is.
    package static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            var clean = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<index]))
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22, 0x5C: out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hexDigit(byte >> 4), hexDigit(byte & 0xF)])
                }
                clean = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean...]))
            out.append(UInt8(ascii: "\""))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x61 + value - 10
    }

    private static func timestamp(_ date: Date) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        appendTimestamp(date, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `date` in RFC 3339 UTC with milliseconds: `2026-11-30T06:00:00.123Z`.
    package static func appendTimestamp(_ date: Date, to out: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        var seconds = Int(interval.rounded(.down))
        var milliseconds = Int(((interval - Double(seconds)) * 1000).rounded(.down))
        if milliseconds >= 1000 {
            seconds += 1
            milliseconds -= 1000
        }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        appendDigits(Int(parts.tm_year) + 1900, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(milliseconds, width: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// Appends a non-negative number in decimal, zero-padded to `width` digits (wider numbers
    /// keep all their digits).
    private static func appendDigits(_ value: Int, width: Int, to out: inout [UInt8]) {
        let value = max(0, value)
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(0x30 + (value / divisor) % 10))
            divisor /= 10
        }
    }
}
