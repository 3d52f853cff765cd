/// One reply from Redis (RESP2, the protocol hiredis 0.14 reads).
///
/// ``RedisClient/send(_:timeout:)`` throws an error reply as a ``RedisError`` with code
/// ``RedisError/Code/server``; ``RedisClient/pipeline(_:timeout:)`` keeps it in its place as
/// ``error(_:)``, and so does an array (the replies of `EXEC`).
public enum RedisValue: Sendable, Hashable {
    /// A status reply, such as `OK` or `PONG`.
    case simpleString(String)
    /// An error reply, such as `WRONGTYPE Operation against a key holding the wrong kind of value`.
    case error(String)
    /// An integer reply.
    case integer(Int64)
    /// A bulk string: any bytes, NUL and CR LF included.
    case bulkString([UInt8])
    /// The null bulk string or null array (a missing key, a `BLPOP` that timed out).
    case null
    /// An array of replies.
    case array([RedisValue])

    /// The text of a status reply, or of a bulk string that is valid UTF-8; `nil` otherwise.
    public var stringValue: String? {
        switch self {
        case .simpleString(let text): return text
        case .bulkString(let bytes): return String(validating: bytes, as: UTF8.self)
        default: return nil
        }
    }

    /// The bytes of a bulk string or status reply; `nil` otherwise.
    public var bytesValue: [UInt8]? {
        switch self {
        case .bulkString(let bytes): return bytes
        case .simpleString(let text): return Array(text.utf8)
        default: return nil
        }
    }

    /// The value of an integer reply, or of a bulk string holding a decimal integer (what `GET`
    /// returns for a counter); `nil` otherwise.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .bulkString(let bytes): return Int64(String(decoding: bytes, as: UTF8.self))
        default: return nil
        }
    }

    /// The elements of an array reply; `nil` otherwise.
    public var arrayValue: [RedisValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is the null reply.
    public var isNull: Bool { self == .null }
}
