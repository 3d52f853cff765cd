public import Foundation

extension KeyedDecodingContainer {
    /// Decodes a timestamp written as RFC 3339 text (``RFC3339Timestamp``).
    ///
    /// ```swift
    /// createdAt = try container.decodeRFC3339(forKey: .createdAt)
    /// ```
    /// - Parameter key: The member's key.
    /// - Returns: The moment.
    /// - Throws: `DecodingError` when the member is missing, not a string, or not a timestamp.
    public func decodeRFC3339(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = RFC3339Timestamp.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: self,
                debugDescription: "expected an RFC 3339 timestamp such as 2026-03-01T12:00:00Z"
            )
        }
        return date
    }

    /// Decodes a timestamp written as RFC 3339 text that may be absent or `null`.
    /// - Parameter key: The member's key.
    /// - Returns: The moment, or `nil` when the member is absent or `null`.
    /// - Throws: `DecodingError` when the member is present but not a timestamp.
    public func decodeRFC3339IfPresent(forKey key: Key) throws -> Date? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeRFC3339(forKey: key)
    }
}
