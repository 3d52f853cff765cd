import CHiredis

/// hiredis's RESP reader for one connection: bytes go in as they arrive, whole replies come out.
///
/// Owns its `redisReader` (freed in `deinit`); used on its connection's loop thread only. The
/// C replies are copied into ``RedisValue``s and freed at once.
final class RedisReplyReader {
    private let reader: UnsafeMutablePointer<redisReader>

    /// `nil` when hiredis cannot allocate a reader.
    init?() {
        guard let reader = redisReaderCreate() else { return nil }
        self.reader = reader
    }

    deinit {
        redisReaderFree(reader)
    }

    /// Adds received bytes.
    func feed(_ bytes: UnsafeRawPointer, count: Int) throws(RedisError) {
        guard redisReaderFeed(reader, bytes.assumingMemoryBound(to: CChar.self), count) == REDIS_OK else {
            throw failure()
        }
    }

    /// The next complete reply, or `nil` when more bytes are needed.
    func next() throws(RedisError) -> RedisValue? {
        var reply: UnsafeMutableRawPointer?
        guard redisReaderGetReply(reader, &reply) == REDIS_OK else { throw failure() }
        guard let reply else { return nil }
        defer { freeReplyObject(reply) }
        return Self.value(of: reply.assumingMemoryBound(to: redisReply.self))
    }

    private func failure() -> RedisError {
        let detail = String(cString: swifty_redis_reader_error(reader))
        return RedisError(.protocolError, "the reply is not valid RESP: \(detail)")
    }

    private static func value(of reply: UnsafeMutablePointer<redisReply>) -> RedisValue {
        let node = reply.pointee
        switch node.type {
        case REDIS_REPLY_STRING:
            return .bulkString(bytes(node))
        case REDIS_REPLY_STATUS:
            return .simpleString(String(decoding: bytes(node), as: UTF8.self))
        case REDIS_REPLY_ERROR:
            return .error(String(decoding: bytes(node), as: UTF8.self))
        case REDIS_REPLY_INTEGER:
            return .integer(node.integer)
        case REDIS_REPLY_ARRAY:
            var elements: [RedisValue] = []
            elements.reserveCapacity(node.elements)
            for index in 0..<node.elements {
                if let element = node.element[index] { elements.append(value(of: element)) }
            }
            return .array(elements)
        default:
            return .null
        }
    }

    private static func bytes(_ node: redisReply) -> [UInt8] {
        guard let text = node.str, node.len > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: text, count: node.len))
    }
}
