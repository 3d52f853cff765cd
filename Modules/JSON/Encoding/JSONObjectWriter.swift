package import Foundation

/// Writes one flat JSON object member by member: the bytes ``StreamingJSONEncoder`` writes for a
/// value that encodes the same string and integer members in the same order, without the
/// `Encodable` machinery (containers, coding keys, existential encoders).
///
/// For the bodies built on every request of a hot path, such as a problem answer:
///
/// ```swift
/// var object = JSONObjectWriter()
/// object.member("status", 401)
/// object.member("detail", "This endpoint needs a token.")
/// let body = object.finish()  // {"status":401,"detail":"This endpoint needs a token."}
/// ```
package struct JSONObjectWriter: ~Copyable {
    private let writer = JSONStreamWriter(dateEncoding: .deferredToDate)
    private var isEmpty = true

    /// Starts the object.
    package init() {
        writer.append(UInt8(ascii: "{"))
    }

    /// Adds `"key":"value"`, escaped as the encoder escapes strings.
    package mutating func member(_ key: String, _ value: String) {
        writer.writeMemberPrefix(key, comma: !isEmpty)
        writer.writeString(value)
        isEmpty = false
    }

    /// Adds `"key":value` with the integer's decimal digits.
    package mutating func member(_ key: String, _ value: Int) {
        writer.writeMemberPrefix(key, comma: !isEmpty)
        writer.writeInteger(value)
        isEmpty = false
    }

    /// Closes the object and returns its bytes.
    package consuming func finish() -> Data {
        writer.append(UInt8(ascii: "}"))
        defer { writer.finish() }
        return writer.takeData()
    }
}
