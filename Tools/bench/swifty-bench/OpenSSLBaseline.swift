import COpenSSL

/// Raw OpenSSL calls with nothing of ours around them, the signing benchmark's floor:
/// HMAC-SHA-256 through one reused keyed `EVP_MAC` context, SHA-256 through `EVP_Digest`, and
/// for comparison an `EVP_MAC_CTX_dup` of the keyed context per MAC.
///
/// `@unchecked Sendable`: it owns C contexts and is used by one benchmark thread.
final class OpenSSLBaseline: @unchecked Sendable {
    /// A failed OpenSSL call while setting up.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    private let context: OpaquePointer
    private let sha256: OpaquePointer

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
