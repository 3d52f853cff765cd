public import Foundation

/// A JSON encoder that writes straight into one byte buffer, without an intermediate tree.
///
/// It is the client's default body encoder: several times faster than Foundation's
/// `JSONEncoder` for typical request bodies, with the same JSON as `JSONEncoder()` with
/// `.withoutEscapingSlashes`: `Date` as seconds since 2001 unless a ``DateEncoding`` is chosen,
/// `Data` as base64, `URL` as its absolute string, `/` not escaped. Keys come out in the order
/// the value encodes them (declaration order for synthesized `Codable`), where Foundation's
/// order is unspecified; for sorted keys use ``SortedKeysJSONEncoder``.
///
/// The output is written in one pass, in the order the value encodes. A value that writes to a
/// container after a sibling began, or asks for a `superEncoder`, cannot be written so: the
/// encoder throws `EncodingError.invalidValue` for it rather than write invalid JSON.
public struct StreamingJSONEncoder: JSONBodyEncoder {
    /// How `Date` values are written.
    public enum DateEncoding: Sendable {
        /// Seconds since 1 January 2001, as a number (Foundation's default).
        case deferredToDate
        /// Seconds since 1970, as a number.
        case secondsSince1970
        /// Milliseconds since 1970, as a number.
        case millisecondsSince1970
        /// An RFC 3339 / ISO 8601 string in UTC, such as `2026-11-30T06:00:00Z`.
        case iso8601
    }

    /// How `Date` values are written.
    public var dateEncoding: DateEncoding

    /// Creates an encoder.
    public init(dateEncoding: DateEncoding = .deferredToDate) {
        self.dateEncoding = dateEncoding
    }

    /// Encodes a value as JSON.
    /// - Throws: `EncodingError` when the value cannot be represented (a non-finite number, a
    ///   container written out of order).
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let writer = JSONStreamWriter(dateEncoding: dateEncoding)
        defer { writer.finish() }
        do {
            try writer.encodeValue(value)
        } catch  where writer.isOutOfOrder {
            throw Self.outOfOrder(value)
        }
        guard !writer.isOutOfOrder else { throw Self.outOfOrder(value) }
        writer.closeAll()
        return writer.takeData()
    }

    private static func outOfOrder(_ value: Any) -> EncodingError {
        .invalidValue(
            value,
            .init(
                codingPath: [],
                debugDescription:
                    "the value writes to a container after a sibling began, or asks for a superEncoder; "
                    + "the streaming encoder writes in order only"))
    }
}
