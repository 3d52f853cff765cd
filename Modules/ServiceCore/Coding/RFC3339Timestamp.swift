public import Foundation

/// Timestamps as RFC 3339 text: written in UTC with whole seconds and `Z`
/// (`2026-03-01T12:00:00Z`); read with or without fractional seconds, with `Z` or a numeric
/// offset (`2026-03-01T14:00:00.5+02:00`).
///
/// Codable models use it through `KeyedDecodingContainer.decodeRFC3339(forKey:)` and
/// `KeyedEncodingContainer.encodeRFC3339(_:forKey:)`, so a model's timestamps do not
/// depend on the date strategy of whichever decoder or encoder reads it.
public enum RFC3339Timestamp {
    /// Formats a timestamp: whole seconds (fractions are dropped), UTC, `Z`.
    /// - Parameter date: The moment to write.
    /// - Returns: Text such as `2026-03-01T12:00:00Z`.
    public static func string(from date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Parses RFC 3339 text such as `2026-03-01T12:00:00Z`; fractional seconds and offsets are accepted.
    /// - Parameter text: The text to read.
    /// - Returns: The moment, or `nil` when the text is not such a timestamp.
    public static func date(from text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}
