import COpenSSL

/// Raw OpenSSL calls with nothing of ours around them: HMAC-SHA-256 through one reused keyed
/// `EVP_MAC` context, and SHA-256 through `EVP_Digest`. The benchmark's floor; not for use
/// from several threads at once.
///
/// `@unchecked Sendable`: it owns one C context and is used by one benchmark thread.
package final class OpenSSLBaseline: @unchecked Sendable {
    private let context: OpaquePointer
    private let sha256: OpaquePointer

    /// Keys the context.
    /// - Throws: ``SigningError`` when OpenSSL fails.
    package init(secret: [UInt8]) throws(SigningError) {
        let keyed = try KeyedMAC(secret: secret, digestName: "SHA256")
        guard let context = keyed.duplicateContext() else { throw SigningError.openSSL("EVP_MAC_CTX_dup") }
        self.context = context
        self.sha256 = try OpenSSLAlgorithms.shared.requireDigest(.sha256)
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// `EVP_MAC_init(ctx, NULL, 0, NULL)`, `EVP_MAC_update`, `EVP_MAC_final`; returns the MAC length.
    package func mac(_ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        var written = 0
        guard EVP_MAC_init(context, nil, 0, nil) == 1,
            EVP_MAC_update(context, data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count) == 1,
            EVP_MAC_final(context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written, output.count) == 1
        else { return 0 }
        return written
    }

    /// `EVP_Digest` with SHA-256; returns the digest length.
    package func digest(_ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        var written: UInt32 = 0
        guard
            EVP_Digest(
                data.baseAddress, data.count, output.baseAddress?.assumingMemoryBound(to: UInt8.self),
                &written, sha256, nil) == 1
        else { return 0 }
        return Int(written)
    }
}
