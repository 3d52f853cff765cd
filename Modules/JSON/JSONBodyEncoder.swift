public import Foundation

/// Turns an `Encodable` value into JSON body bytes.
///
/// The client uses ``StreamingJSONEncoder`` unless configured otherwise; Foundation's
/// `JSONEncoder` conforms too, for its strategies (sorted keys, snake-case keys, ...).
public protocol JSONBodyEncoder: Sendable {
    /// Encodes a value as JSON.
    /// - Throws: `EncodingError` when the value cannot be represented.
    func encode<T: Encodable>(_ value: T) throws -> Data
}

extension JSONEncoder: JSONBodyEncoder {}
