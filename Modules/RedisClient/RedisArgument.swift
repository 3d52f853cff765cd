/// One argument of a command (its name included), sent as a RESP bulk string: any bytes.
///
/// String and integer literals are arguments, so a command reads
/// `try await client.send(["SET", "greeting", "hello", "PX", 500])`.
public struct RedisArgument: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// The bytes sent.
    public let bytes: [UInt8]

    /// An argument of `string`'s UTF-8 bytes.
    public init(_ string: String) { bytes = Array(string.utf8) }

    /// An argument of these bytes, which may hold anything (NUL, CR LF, non-UTF-8).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// An argument of `integer` in decimal.
    public init(_ integer: Int) { bytes = Array(String(integer).utf8) }

    /// An argument of the literal's UTF-8 bytes.
    public init(stringLiteral value: String) { self.init(value) }

    /// An argument of the literal in decimal.
    public init(integerLiteral value: Int) { self.init(value) }
}
