import COpenSSL

/// Random bytes and nonces from OpenSSL's CSPRNG (`RAND_bytes`).
enum SecureRandom {
    /// Fills `buffer` with random bytes.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(SigningError) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        guard RAND_bytes(base.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)) == 1 else {
            throw SigningError.openSSL("RAND_bytes")
        }
    }

    /// A nonce of 128 random bits, as 22 characters of unpadded base64url.
    static func nonce() throws(SigningError) -> String {
        try withUnsafeTemporaryAllocation(byteCount: 16, alignment: 8) { (random) throws(SigningError) -> String in
            try fill(random)
            var text: [UInt8] = []
            text.reserveCapacity(22)
            Base64.encode(UnsafeRawBufferPointer(random), into: &text, urlSafe: true, padding: false)
            return String(decoding: text, as: UTF8.self)
        }
    }
}
