import COpenSSL

/// A SHA-2 digest through OpenSSL's one-digest calls (`SHA256_Init` and its siblings): the hash
/// behind HMAC keys and `Content-Digest`.
///
/// OpenSSL 3 marks these calls deprecated in favour of `EVP_Digest`, which allocates and frees
/// a context and a provider context per digest: for a 256-byte body these calls take about a
/// fifth less time. They work on a state in memory the caller provides and cannot fail.
enum SHA2 {
    case sha224, sha256, sha384, sha512

    /// The largest block and digest, for buffers sized for any member.
    static let maximumBlockSize = 128
    static let maximumLength = 64
    static let maximumStateSize = MemoryLayout<SHA512_CTX>.size

    /// The digest OpenSSL names `name` (`SHA256`, `SHA2-256`, `sha-256`, ...), or `nil`.
    init?(name: String) {
        switch name.uppercased() {
        case "SHA224", "SHA2-224", "SHA-224": self = .sha224
        case "SHA256", "SHA2-256", "SHA-256": self = .sha256
        case "SHA384", "SHA2-384", "SHA-384": self = .sha384
        case "SHA512", "SHA2-512", "SHA-512": self = .sha512
        default: return nil
        }
    }

    /// The digest length in bytes.
    var length: Int {
        switch self {
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The block length in bytes.
    var blockSize: Int { isWide ? 128 : 64 }

    /// The bytes of the state the calls work on.
    var stateSize: Int { isWide ? MemoryLayout<SHA512_CTX>.size : MemoryLayout<SHA256_CTX>.size }

    private var isWide: Bool { self == .sha384 || self == .sha512 }

    /// Sets `state` to the digest's initial state.
    func start(_ state: UnsafeMutableRawPointer) {
        switch self {
        case .sha224: _ = SHA224_Init(state.assumingMemoryBound(to: SHA256_CTX.self))
        case .sha256: _ = SHA256_Init(state.assumingMemoryBound(to: SHA256_CTX.self))
        case .sha384: _ = SHA384_Init(state.assumingMemoryBound(to: SHA512_CTX.self))
        case .sha512: _ = SHA512_Init(state.assumingMemoryBound(to: SHA512_CTX.self))
        }
    }

    /// Hashes `data` into `state`.
    func update(_ state: UnsafeMutableRawPointer, _ data: UnsafeRawBufferPointer) {
        guard let bytes = data.baseAddress, !data.isEmpty else { return }
        if isWide {
            _ = SHA512_Update(state.assumingMemoryBound(to: SHA512_CTX.self), bytes, data.count)
        } else {
            _ = SHA256_Update(state.assumingMemoryBound(to: SHA256_CTX.self), bytes, data.count)
        }
    }

    /// Writes the digest (``length`` bytes) to `output`.
    func finish(_ state: UnsafeMutableRawPointer, into output: UnsafeMutableRawPointer) {
        let bytes = output.assumingMemoryBound(to: UInt8.self)
        switch self {
        case .sha224: _ = SHA224_Final(bytes, state.assumingMemoryBound(to: SHA256_CTX.self))
        case .sha256: _ = SHA256_Final(bytes, state.assumingMemoryBound(to: SHA256_CTX.self))
        case .sha384: _ = SHA384_Final(bytes, state.assumingMemoryBound(to: SHA512_CTX.self))
        case .sha512: _ = SHA512_Final(bytes, state.assumingMemoryBound(to: SHA512_CTX.self))
        }
    }

    /// Hashes `data` in one go, using `state` as scratch.
    func hash(_ data: UnsafeRawBufferPointer, state: UnsafeMutableRawPointer, into output: UnsafeMutableRawPointer) {
        start(state)
        update(state, data)
        finish(state, into: output)
    }

    /// Hashes `data` in one go into `output` (at least ``length`` bytes), with the state on the
    /// stack.
    func hash(_ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) {
        withUnsafeTemporaryAllocation(byteCount: Self.maximumStateSize, alignment: 16) { state in
            hash(data, state: state.baseAddress!, into: output)
        }
    }
}
