/// A hash algorithm for RFC 9530 `Content-Digest`.
///
/// The raw value is the key used in the field (`sha-256=:...:`).
public enum DigestAlgorithm: String, Sendable, CaseIterable, CustomStringConvertible {
    /// SHA-256, the default.
    case sha256 = "sha-256"
    /// SHA-512.
    case sha512 = "sha-512"

    /// The length of a digest in bytes.
    public var digestLength: Int {
        switch self {
        case .sha256: 32
        case .sha512: 64
        }
    }

    /// The OpenSSL calls behind it.
    private var digest: SHA2 {
        switch self {
        case .sha256: .sha256
        case .sha512: .sha512
        }
    }

    /// Hashes `data` with OpenSSL.
    /// - Throws: Nothing with the two supported digests (their OpenSSL calls cannot fail); the
    ///   signature keeps ``SigningError`` for digests that could.
    public func hash(_ data: UnsafeRawBufferPointer) throws(SigningError) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: digestLength) { output, count in
            hash(data, into: UnsafeMutableRawPointer(output.baseAddress!))
            count = digestLength
        }
    }

    /// Hashes `data` into `output`, which holds at least ``digestLength`` bytes.
    func hash(_ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) {
        digest.hash(data, into: output)
    }

    /// Hashes the bytes of a collection.
    /// - Throws: Nothing with the two supported digests (their OpenSSL calls cannot fail); the
    ///   signature keeps ``SigningError`` for digests that could.
    public func hash(_ data: some Collection<UInt8>) throws(SigningError) -> [UInt8] {
        let result: Result<[UInt8], SigningError>? = data.withContiguousStorageIfAvailable { buffer in
            Result { () throws(SigningError) in try hash(UnsafeRawBufferPointer(buffer)) }
        }
        if let result { return try result.get() }
        let copy = Array(data)
        return try copy.withUnsafeBytes { buffer in Result { () throws(SigningError) in try hash(buffer) } }.get()
    }

    /// The field key.
    public var description: String { rawValue }
}
