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
/// It is Foundation's `JSONEncoder` with the output formatting `[.sortedKeys, .withoutEscapingSlashes]`
/// and default strategies, shared by every instance.
public struct SortedKeysJSONEncoder: JSONBodyEncoder {
    /// The one configured encoder; never changed after it is made, so sharing it is safe.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Creates the encoder.
    public init() {}

    /// Encodes a value as JSON with sorted keys.
    /// - Throws: `EncodingError` when the value cannot be represented.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        try Self.encoder.encode(value)
    }
}
