import Foundation

/// Renders records as text or JSON lines.
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
        var line = "{\"ts\":\"\(timestamp(record.date))\",\"level\":\"\(record.level.rawValue)\""
        line += ",\"label\":" + quoted(record.label) + ",\"msg\":" + quoted(record.message)
        for (key, value) in record.metadata.sorted(by: { $0.key < $1.key }) {
            line += "," + quoted(key) + ":" + json(value)
        }
        return line + "}"
    }

    private static func json(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let string):
            quoted(string)
        case .array(let values):
            "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let values):
            "{" + values.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + json($0.value) }.joined(separator: ",")
                + "}"
        }
    }

    /// A JSON string literal with the characters RFC 8259 requires escaped.
    package static func quoted(_ string: String) -> String {
        // Most keys and values need no escaping: one scan, one concatenation.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            return "\"" + string + "\""
        }
        var out = "\""
        out.reserveCapacity(string.utf8.count + 2)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
