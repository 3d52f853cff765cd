import COpenSSL

/// A secret HMAC key, ready to compute and check MACs: the digest's states after the key's
/// inner and outer pad blocks, computed once and copied for every message.
///
/// A MAC only reads the states, so a key may be shared freely between concurrent callers. The
/// states are cleared when the key goes away; the bytes given to ``init(secret:algorithm:)``
/// are cleared after use. `description` never shows the key.
public final class HMACKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The HMAC variant.
    public let algorithm: SigningAlgorithm
    /// The pad states and the MAC computation.
    package let mac: KeyedMAC

    /// Creates a key.
    ///
    /// Any length is accepted here (RFC 4231 tests use 4-byte keys); ``SigningKey`` enforces the
    /// scheme's minimum.
    /// - Parameters:
    ///   - secret: The key bytes. The caller should clear its copy when done.
    ///   - algorithm: The HMAC variant.
    /// - Throws: ``SigningError`` with code `cryptoFailure` when OpenSSL cannot create the context.
    public init(secret: some Collection<UInt8>, algorithm: SigningAlgorithm) throws(SigningError) {
        self.algorithm = algorithm
        self.mac = try KeyedMAC(secret: secret, digestName: algorithm.openSSLDigestName)
    }

    /// Computes the MAC of `data`.
    /// - Throws: ``SigningError`` with code `cryptoFailure` if OpenSSL fails.
    public func authenticationCode(for data: some Collection<UInt8>) throws(SigningError) -> [UInt8] {
        try mac.authenticationCode(for: data)
    }

    /// Computes the MAC of the bytes in `data`.
    /// - Throws: ``SigningError`` with code `cryptoFailure` if OpenSSL fails.
    public func authenticationCode(for data: UnsafeRawBufferPointer) throws(SigningError) -> [UInt8] {
        try mac.authenticationCode(for: data)
    }

    /// Whether `code` is the MAC of `data`: a length check, then a constant-time comparison
    /// (`CRYPTO_memcmp`).
    /// - Throws: ``SigningError`` with code `cryptoFailure` if OpenSSL fails.
    public func isValidAuthenticationCode(
        _ code: some Collection<UInt8>,
        for data: UnsafeRawBufferPointer
    ) throws(SigningError) -> Bool {
        let length = mac.macLength
        guard code.count == length else { return false }
        return try withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { (expected) throws(SigningError) in
            let written = try mac.authenticate(data, into: expected)
            guard written == length else { return false }
            if let equal = code.withContiguousStorageIfAvailable({
                CRYPTO_memcmp($0.baseAddress, expected.baseAddress, length) == 0
            }) {
                return equal
            }
            return Array(code).withUnsafeBytes { CRYPTO_memcmp($0.baseAddress, expected.baseAddress, length) == 0 }
        }
    }

    /// Computes the MAC into `output` (at least ``SigningAlgorithm/macLength`` bytes) and returns
    /// the number of bytes written.
    package func authenticate(
        _ data: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(SigningError) -> Int {
        try mac.authenticate(data, into: output)
    }

    /// The algorithm only; never the key.
    public var description: String { "HMACKey(\(algorithm), secret: <redacted>)" }

    /// The same as ``description``.
    public var debugDescription: String { description }
}
