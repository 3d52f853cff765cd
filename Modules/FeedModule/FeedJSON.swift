import Foundation

/// The module's JSON conventions: request bodies with sorted keys and no escaped slashes;
/// timestamps as RFC 3339 text in UTC (`2026-03-01T12:00:00Z`).
enum FeedJSON {
    /// Encodes request bodies: keys sorted, so the bytes are stable (and signable as sent).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Formats a timestamp: whole seconds, UTC, `Z`.
    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Parses an RFC 3339 timestamp (fractional seconds and offsets accepted), or `nil`.
    static func parse(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}

extension KeyedDecodingContainer {
    /// Decodes an RFC 3339 timestamp string.
    func decodeTimestamp(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = FeedJSON.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: self,
                debugDescription: "expected an RFC 3339 timestamp such as 2026-03-01T12:00:00Z"
            )
        }
        return date
    }

    /// Decodes an RFC 3339 timestamp string that may be absent or `null`.
    func decodeTimestampIfPresent(forKey key: Key) throws -> Date? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeTimestamp(forKey: key)
    }
}

extension KeyedEncodingContainer {
    /// Encodes a timestamp as RFC 3339 text.
    mutating func encodeTimestamp(_ date: Date, forKey key: Key) throws {
        try encode(FeedJSON.format(date), forKey: key)
    }

    /// Encodes a timestamp as RFC 3339 text, or nothing when `nil`.
    mutating func encodeTimestampIfPresent(_ date: Date?, forKey key: Key) throws {
        guard let date else { return }
        try encodeTimestamp(date, forKey: key)
    }
}
