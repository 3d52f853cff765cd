public import Foundation

extension KeyedEncodingContainer {
    /// Encodes a timestamp as RFC 3339 text (``RFC3339Timestamp``): `2026-03-01T12:00:00Z`.
    /// - Parameters:
    ///   - date: The moment.
    ///   - key: The member's key.
    /// - Throws: `EncodingError` from the encoder.
    public mutating func encodeRFC3339(_ date: Date, forKey key: Key) throws {
        try encode(RFC3339Timestamp.string(from: date), forKey: key)
    }

    /// Encodes a timestamp as RFC 3339 text, or nothing (the member is left out) when `nil`.
    /// - Parameters:
    ///   - date: The moment, or `nil`.
    ///   - key: The member's key.
    /// - Throws: `EncodingError` from the encoder.
    public mutating func encodeRFC3339IfPresent(_ date: Date?, forKey key: Key) throws {
        guard let date else { return }
        try encodeRFC3339(date, forKey: key)
    }
}
