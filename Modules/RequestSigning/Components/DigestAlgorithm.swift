import COpenSSL

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

    /// Hashes `data` with OpenSSL (`EVP_Digest` with a digest fetched once per process).
    /// - Throws: ``SigningError`` with code `cryptoFailure` if OpenSSL fails.
    public func hash(_ data: UnsafeRawBufferPointer) throws(SigningError) -> [UInt8] {
        let md = try OpenSSLAlgorithms.shared.requireDigest(self)
        var ok = false
        let digest = [UInt8](unsafeUninitializedCapacity: digestLength) { output, count in
            var written: UInt32 = 0
            ok =
                EVP_Digest(
                    data.baseAddress ?? UnsafeRawPointer(output.baseAddress!), data.count,
                    output.baseAddress, &written, md, nil) == 1
            count = ok ? Int(written) : 0
        }
        guard ok, digest.count == digestLength else { throw SigningError.openSSL("EVP_Digest (\(self))") }
        return digest
    }

    /// Hashes `data` into `output` (at least ``digestLength`` bytes); returns `false` if OpenSSL
    /// fails or the output is too small.
    func hash(_ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool {
        guard output.count >= digestLength, let md = try? OpenSSLAlgorithms.shared.requireDigest(self) else {
            return false
        }
        var written: UInt32 = 0
        let ok = EVP_Digest(
            data.baseAddress ?? UnsafeRawPointer(output.baseAddress!), data.count,
            output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written, md, nil)
        return ok == 1 && Int(written) == digestLength
    }

    /// Hashes the bytes of a collection.
    /// - Throws: ``SigningError`` with code `cryptoFailure` if OpenSSL fails.
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
