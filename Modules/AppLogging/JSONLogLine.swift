package import Foundation

/// One JSON log line, written member by member: `{"ts":…,"level":…,"label":…,"msg":…` and then
/// the metadata, which the caller adds in key order.
///
/// ``LogLineFormatter`` writes every JSON record through it (sorting the record's metadata
/// first); a hot path whose keys are known can write the same bytes without building a
/// `Logger.Metadata` dictionary.
package struct JSONLogLine {
    private var bytes: [UInt8] = []
    /// Whether the next member or element follows another one at its level.
    private var needsComma = true

    /// Starts a line with the record's fixed members.
    package init(date: Date, level: Logger.Level, label: String, message: String) {
        self.init(appendingTo: [], date: date, level: level, label: label, message: message)
    }

    /// Starts a line after the bytes of `buffer`, which ``finish(newline:)`` returns with the
    /// line added: a batch of lines grows in one buffer instead of copying each line into it.
    package init(appendingTo buffer: consuming [UInt8], date: Date, level: Logger.Level, label: String, message: String)
    {
        bytes = buffer
        // Room for a typical line; doubling when short, since an exact reservation per line
        // would copy a growing batch at every line.
        if bytes.capacity - bytes.count < 320 { bytes.reserveCapacity(max(bytes.count + 320, 2 * bytes.capacity)) }
        LogLineFormatter.append(#"{"ts":""#, to: &bytes)
        LogLineFormatter.appendTimestamp(date, to: &bytes)
        LogLineFormatter.append(#"","level":""#, to: &bytes)
        LogLineFormatter.append(level.rawValue, to: &bytes)
        LogLineFormatter.append(#"","label":"#, to: &bytes)
        LogLineFormatter.appendQuoted(label, to: &bytes)
        LogLineFormatter.append(#","msg":"#, to: &bytes)
        LogLineFormatter.appendQuoted(message, to: &bytes)
    }

    /// Adds `"key":"value"`.
    package mutating func member(_ key: String, _ value: String) {
        startMember(key)
        LogLineFormatter.appendQuoted(value, to: &bytes)
        needsComma = true
    }

    /// Adds `"key":` and the JSON of `value` (objects with their keys sorted).
    package mutating func member(_ key: String, _ value: Logger.MetadataValue) {
        startMember(key)
        LogLineFormatter.appendJSON(value, to: &bytes)
        needsComma = true
    }

    /// Opens `"key":[`; close it with ``closeArray()``.
    package mutating func openArray(_ key: String) {
        startMember(key)
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes the innermost array.
    package mutating func closeArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Opens an object as the next element of an array; close it with ``closeObject()``.
    package mutating func openObject() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the innermost object.
    package mutating func closeObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// The finished line's bytes, with a trailing newline when asked.
    package consuming func finish(newline: Bool) -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        if newline { bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }

    private mutating func startMember(_ key: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        LogLineFormatter.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}
