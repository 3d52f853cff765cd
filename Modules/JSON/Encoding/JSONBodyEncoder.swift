public import Foundation

/// Turns an `Encodable` value into JSON body bytes.
///
/// The client uses ``StreamingJSONEncoder`` unless configured otherwise;
/// ``SortedKeysJSONEncoder`` gives the same value the same bytes.
public protocol JSONBodyEncoder: Sendable {
    /// Encodes a value as JSON.
    /// - Throws: `EncodingError` when the value cannot be represented.
    func encode<T: Encodable>(_ value: T) throws -> Data
}
