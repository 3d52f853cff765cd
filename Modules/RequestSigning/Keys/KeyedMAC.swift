import COpenSSL

/// An HMAC key for a SHA-2 digest (SHA-224, SHA-256, SHA-384, SHA-512), held as the digest's
/// states after the key's inner and outer pad blocks (RFC 2104); the engine behind ``HMACKey``.
///
/// A MAC copies the inner state into a stack buffer, hashes the message and finishes, then does
/// the same with the outer state over the inner hash: two copies and the message's blocks, with
/// no per-message key setup, allocation or lock, and nothing shared that a call changes, so
/// concurrent callers need no coordination. OpenSSL's `EVP_MAC` HMAC costs about 60 % more for a
/// 400-byte message, most of it in copying and freeing provider contexts. The states are
/// key-derived: they live in memory this object owns and are cleared with `OPENSSL_cleanse`
/// when it goes away, and each per-message copy is cleared after use, as are the bytes given to
/// the initialiser.
///
/// `@unchecked Sendable`: the states are written once in `init` and only read afterwards.
package final class KeyedMAC: @unchecked Sendable {
    /// The MAC length in bytes.
    package let macLength: Int

    /// The SHA-2 family member and its OpenSSL calls.
    private let digest: SHA2
    /// The inner state, then the outer state, each ``SHA2/stateSize`` bytes.
    private let states: UnsafeMutableRawPointer

    /// Creates the key for HMAC with a SHA-2 digest named as OpenSSL names it (`SHA256`,
    /// `SHA2-256`, `sha512`, ...).
    /// - Throws: ``SigningError`` with code `cryptoFailure` for a digest that is not SHA-224,
    ///   SHA-256, SHA-384 or SHA-512.
    package init(secret: some Collection<UInt8>, digestName: String) throws(SigningError) {
        guard let digest = SHA2(name: digestName) else {
            throw SigningError(
                .cryptoFailure, "HMAC is available with SHA-224, SHA-256, SHA-384 and SHA-512, not \(digestName)")
        }
        self.digest = digest
        self.macLength = digest.length
        states = .allocate(byteCount: 2 * digest.stateSize, alignment: 16)
        var key = Array(secret)
        defer { key.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        withUnsafeTemporaryAllocation(byteCount: 2 * SHA2.maximumBlockSize, alignment: 16) { scratch in
            let block = scratch.baseAddress!
            let pad = block + SHA2.maximumBlockSize
            // A key longer than a block is replaced by its hash (RFC 2104 §2).
            var keyLength = key.count
            key.withUnsafeBytes { bytes in
                if bytes.count > digest.blockSize {
                    digest.hash(bytes, state: states, into: block)
                    keyLength = digest.length
                } else if let source = bytes.baseAddress, !bytes.isEmpty {
                    block.copyMemory(from: source, byteCount: bytes.count)
                }
            }
            (block + keyLength).initializeMemory(as: UInt8.self, repeating: 0, count: digest.blockSize - keyLength)
            for (state, byte) in [(states, UInt8(0x36)), (states + digest.stateSize, UInt8(0x5C))] {
                for offset in 0..<digest.blockSize {
                    let value = block.load(fromByteOffset: offset, as: UInt8.self) ^ byte
                    pad.storeBytes(of: value, toByteOffset: offset, as: UInt8.self)
                }
                digest.start(state)
                digest.update(state, UnsafeRawBufferPointer(start: pad, count: digest.blockSize))
            }
            OPENSSL_cleanse(scratch.baseAddress, scratch.count)
        }
    }

    deinit {
        OPENSSL_cleanse(states, 2 * digest.stateSize)
        states.deallocate()
    }

    /// Computes the MAC into `output` (at least ``macLength`` bytes) and returns
    /// the number of bytes written.
    package func authenticate(
        _ data: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(SigningError) -> Int {
        guard output.count >= macLength, let destination = output.baseAddress else {
            throw SigningError(.cryptoFailure, "the MAC needs \(macLength) bytes of output, not \(output.count)")
        }
        let digest = digest
        let stateSize = digest.stateSize
        // A local copy of the pointer, so that the closure does not capture (and retain) `self`.
        let states = states
        withUnsafeTemporaryAllocation(byteCount: stateSize + SHA2.maximumLength, alignment: 16) { scratch in
            let state = scratch.baseAddress!
            let inner = state + stateSize
            state.copyMemory(from: states, byteCount: stateSize)
            digest.update(state, data)
            digest.finish(state, into: inner)
            state.copyMemory(from: states + stateSize, byteCount: stateSize)
            digest.update(state, UnsafeRawBufferPointer(start: inner, count: digest.length))
            digest.finish(state, into: destination)
            OPENSSL_cleanse(scratch.baseAddress, scratch.count)
        }
        return macLength
    }
}

extension KeyedMAC {
    /// Computes the MAC of `data`.
    /// - Throws: ``SigningError`` with code `cryptoFailure` if OpenSSL fails.
    package func authenticationCode(for data: some Collection<UInt8>) throws(SigningError) -> [UInt8] {
        let result: Result<[UInt8], SigningError>? = data.withContiguousStorageIfAvailable { buffer in
            Result { () throws(SigningError) in try authenticationCode(for: UnsafeRawBufferPointer(buffer)) }
        }
        if let result { return try result.get() }
        let copy = Array(data)
        return try copy.withUnsafeBytes { buffer in
            Result { () throws(SigningError) in try authenticationCode(for: buffer) }
        }.get()
    }

    /// Computes the MAC of the bytes in `data`.
    /// - Throws: ``SigningError`` with code `cryptoFailure` if OpenSSL fails.
    package func authenticationCode(for data: UnsafeRawBufferPointer) throws(SigningError) -> [UInt8] {
        var failure: SigningError?
        let code = [UInt8](unsafeUninitializedCapacity: max(macLength, 1)) { output, count in
            do throws(SigningError) {
                count = try authenticate(data, into: UnsafeMutableRawBufferPointer(output))
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        return code
    }
}
