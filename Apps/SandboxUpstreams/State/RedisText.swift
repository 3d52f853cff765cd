import RedisClient

/// One element of a script's array reply, compared with string literals.
struct RedisText: Equatable, ExpressibleByStringLiteral {
    /// The bytes of a bulk string, or the decimal text of an integer.
    var utf8Bytes: [UInt8]

    init(_ value: RedisValue) {
        if case .integer(let number) = value {
            utf8Bytes = Array(String(number).utf8)
        } else {
            utf8Bytes = value.bytesValue ?? []
        }
    }

    init(stringLiteral value: String) { utf8Bytes = Array(value.utf8) }

    /// The bytes as text.
    var string: String { String(decoding: utf8Bytes, as: UTF8.self) }
}

extension Int {
    /// The decimal integer `text` holds.
    init?(_ text: RedisText) { self.init(text.string) }
}
