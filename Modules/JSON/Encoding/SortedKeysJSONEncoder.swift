public import Foundation

/// Encodes request bodies as JSON with sorted keys and unescaped slashes, so the same value
/// always gives the same bytes (and is signed as sent).
///
/// Pass it to a case's JSON task:
///
/// ```swift
/// case .introspect(let token):
///     .json(IntrospectionRequestBody(token: token), encoder: SortedKeysJSONEncoder())
/// ```
///
/// The output is ``StreamingJSONEncoder``'s with the members of every object ordered by the
/// UTF-8 bytes of their names: the bytes Foundation's `JSONEncoder` writes with the output
/// formatting `[.sortedKeys, .withoutEscapingSlashes]`. `Date` values are
/// written as seconds since 2001.
public struct SortedKeysJSONEncoder: JSONBodyEncoder {
    /// Creates the encoder.
    public init() {}

    /// Encodes a value as JSON with sorted keys.
    /// - Throws: `EncodingError` when the value cannot be represented.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let compact = try StreamingJSONEncoder().encode(value)
        do {
            return try JSONTape.scan(compact, dateDecoding: .deferredToDate).canonicalDocument()
        } catch {
            // Only a value that encodes the same key twice in one object gets here.
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "the encoded value is not valid JSON: \(error.reason)"))
        }
    }
}
