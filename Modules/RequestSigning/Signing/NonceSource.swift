import COpenSSL
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random nonces from OpenSSL's CSPRNG, drawn in blocks.
///
/// `RAND_bytes` costs over a microsecond per call in OpenSSL 3.0 whatever the length, so 4 KiB
/// are drawn at once and handed out 16 bytes at a time; each byte is handed out once. Nonces
/// need to be unique and unpredictable, not secret. A forked child drops the parent's block
/// (`pthread_atfork`), so parent and child never share nonces.
enum NonceSource {
    private static let blockSize = 4_096

    private struct Block {
        var bytes: [UInt8] = []
        var next = 0
        var generation = 0
    }

    private static let block = Mutex(Block())
    /// Bumped in a forked child; a block drawn in another generation is dropped.
    private static let forkGeneration = Atomic<Int>(0)
    private static let registerForkHandler: Void = {
        pthread_atfork(nil, nil, NonceSource.childAfterFork)
    }()

    /// Runs in a forked child: invalidates the inherited block.
    private static let childAfterFork: @convention(c) () -> Void = {
        NonceSource.forkGeneration.add(1, ordering: .relaxed)
    }

    /// Writes a nonce of 128 random bits as 22 characters of unpadded base64url.
    static func appendNonce(to writer: inout ByteWriter) throws(SigningError) {
        try withUnsafeTemporaryAllocation(byteCount: 24, alignment: 8) { (text) throws(SigningError) in
            try fillRandom16(into: text)
            writer.append(UnsafeBufferPointer(start: text.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 22))
        }
    }

    /// Writes 22 characters of base64url for 16 random bytes at the start of `output`.
    private static func fillRandom16(into output: UnsafeMutableRawBufferPointer) throws(SigningError) {
        _ = registerForkHandler
        let generation = forkGeneration.load(ordering: .relaxed)
        try withUnsafeTemporaryAllocation(byteCount: 16, alignment: 8) { (random) throws(SigningError) in
            try take16(into: random, generation: generation)
            _ = Base64.encode(
                UnsafeRawBufferPointer(random), writingTo: output.baseAddress!.assumingMemoryBound(to: UInt8.self),
                urlSafe: true, padding: false)
        }
    }

    /// Copies 16 unused random bytes into `random`, refilling the block when needed.
    private static func take16(into random: UnsafeMutableRawBufferPointer, generation: Int) throws(SigningError) {
        try block.withLock { (block) throws(SigningError) in
            if block.generation != generation || block.next + 16 > block.bytes.count {
                if block.bytes.count != blockSize { block.bytes = [UInt8](repeating: 0, count: blockSize) }
                let ok = block.bytes.withUnsafeMutableBytes { buffer in
                    RAND_bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)) == 1
                }
                guard ok else { throw SigningError.openSSL("RAND_bytes") }
                block.next = 0
                block.generation = generation
            }
            // Each byte is handed out once (`next` only moves on). Bytes handed out are not
            // cleared: they become a nonce sent in the clear, and the unused rest stays unread.
            block.bytes.withUnsafeBytes { buffer in
                random.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[block.next..<block.next + 16]))
            }
            block.next += 16
        }
    }
}
