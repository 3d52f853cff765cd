import COpenSSL

/// Raw OpenSSL calls with nothing of ours around them, the signing benchmark's floor:
/// HMAC-SHA-256 through one reused keyed `EVP_MAC` context, SHA-256 through `EVP_Digest`, and
/// for comparison an `EVP_MAC_CTX_dup` of the keyed context per MAC and HMAC from raw
/// `SHA256_*` calls on copies of the pad states.
///
/// `@unchecked Sendable`: it owns C contexts and is used by one benchmark thread.
final class OpenSSLBaseline: @unchecked Sendable {
    /// A failed OpenSSL call while setting up.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    private let context: OpaquePointer
    private let sha256: OpaquePointer
    /// SHA-256 states after the key's inner and outer pad blocks.
    private let inner: SHA256_CTX
    private let outer: SHA256_CTX

    /// Keys an HMAC-SHA-256 context with `secret`.
    init(secret: [UInt8]) throws(SetupError) {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil), let sha256 = EVP_MD_fetch(nil, "SHA256", nil) else {
            throw SetupError(description: "OpenSSL provides no HMAC or SHA256")
        }
        guard let context = EVP_MAC_CTX_new(mac) else { throw SetupError(description: "EVP_MAC_CTX_new failed") }
        var digestName = Array("SHA256".utf8CString)
        let initialised = digestName.withUnsafeMutableBufferPointer { name in
            var parameters = [
                OSSL_PARAM_construct_utf8_string("digest", name.baseAddress, 0), OSSL_PARAM_construct_end(),
            ]
            return secret.withUnsafeBufferPointer { EVP_MAC_init(context, $0.baseAddress, $0.count, &parameters) }
        }
        guard initialised == 1 else {
            EVP_MAC_CTX_free(context)
            throw SetupError(description: "EVP_MAC_init failed")
        }
        self.context = context
        self.sha256 = sha256
        inner = Self.padState(secret, 0x36)
        outer = Self.padState(secret, 0x5C)
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// `EVP_MAC_init(ctx, NULL, 0, NULL)`, `EVP_MAC_update`, `EVP_MAC_final`; returns the MAC length.
    func mac(_ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        Self.mac(context, data, into: output)
    }

    /// The same MAC on a fresh `EVP_MAC_CTX_dup` of the keyed context, freed afterwards.
    func macUsingDuplicate(_ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        guard let copy = EVP_MAC_CTX_dup(context) else { return 0 }
        defer { EVP_MAC_CTX_free(copy) }
        return Self.mac(copy, data, into: output)
    }

    /// The SHA-256 state after the secret's pad block (a secret of at most 64 bytes).
    private static func padState(_ secret: [UInt8], _ byte: UInt8) -> SHA256_CTX {
        let pad = (0..<64).map { ($0 < secret.count ? secret[$0] : 0) ^ byte }
        var context = SHA256_CTX()
        SHA256_Init(&context)
        SHA256_Update(&context, pad, 64)
        return context
    }

    /// HMAC-SHA-256 with `SHA256_Update` and `SHA256_Final` from copies of the pad states (for a
    /// secret of at most 64 bytes); returns the MAC length.
    func macFromStates(_ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        var context = inner
        var hash = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &hash) { hash in
            let hashBytes = hash.baseAddress!.assumingMemoryBound(to: UInt8.self)
            SHA256_Update(&context, data.baseAddress, data.count)
            SHA256_Final(hashBytes, &context)
            context = outer
            SHA256_Update(&context, hashBytes, 32)
            SHA256_Final(output.baseAddress!.assumingMemoryBound(to: UInt8.self), &context)
            return 32
        }
    }

    /// `EVP_Digest` with SHA-256; returns the digest length.
    func digest(_ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        var written: UInt32 = 0
        guard
            EVP_Digest(
                data.baseAddress, data.count, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written,
                sha256, nil) == 1
        else { return 0 }
        return Int(written)
    }

    private static func mac(
        _ context: OpaquePointer,
        _ data: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) -> Int {
        var written = 0
        guard EVP_MAC_init(context, nil, 0, nil) == 1,
            EVP_MAC_update(context, data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count) == 1,
            EVP_MAC_final(context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written, output.count) == 1
        else { return 0 }
        return written
    }
}
