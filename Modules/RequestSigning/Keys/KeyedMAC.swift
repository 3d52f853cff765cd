import COpenSSL
import Synchronization

/// An HMAC key held as keyed OpenSSL `EVP_MAC` contexts, for any digest OpenSSL names; the
/// engine behind ``HMACKey``.
///
/// The key is given to OpenSSL once: a keyed context is reset per message with
/// `EVP_MAC_init(ctx, NULL, 0, NULL)`, which keeps the key and skips re-deriving the padded key
/// blocks. Concurrent callers each take a keyed context from a small pool (a duplicate of the
/// first, made with `EVP_MAC_CTX_dup` when the pool is empty), so no two threads ever share one.
/// OpenSSL keeps its own copy of the key and clears it when a context is freed; the bytes given
/// to the initialiser are cleared after use.
///
/// `@unchecked Sendable`: the contexts are C handles. The prototype is only read (duplicated)
/// while the pool's mutex is held, and each pooled context is used by one caller at a time.
package final class KeyedMAC: @unchecked Sendable {
    /// The MAC length in bytes.
    package let macLength: Int

    /// The keyed context that pooled contexts are duplicated from; never used to compute.
    private let prototype: OpaquePointer
    /// Idle keyed contexts.
    private let pool: Mutex<[ContextHandle]>
    /// The most idle contexts kept; extra ones are freed when returned.
    private static let maximumIdleContexts = 16

    /// Creates a keyed context for HMAC with an OpenSSL digest (`SHA256`, `SHA512`, ...).
    /// - Throws: ``SigningError`` with code `cryptoFailure` when OpenSSL cannot create it.
    package init(secret: some Collection<UInt8>, digestName: String) throws(SigningError) {
        let mac = try OpenSSLAlgorithms.shared.requireHMAC()
        guard let context = EVP_MAC_CTX_new(mac) else { throw SigningError.openSSL("EVP_MAC_CTX_new") }
        var bytes = Array(secret)
        defer { bytes.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        var digestBytes = Array(digestName.utf8CString)
        // The parameter keeps a pointer to its key: a literal passed as the argument would be a
        // temporary C string, freed before EVP_MAC_init reads it.
        let digestKey = Array("digest".utf8CString)
        let initialised = digestBytes.withUnsafeMutableBufferPointer { name in
            digestKey.withUnsafeBufferPointer { key in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(key.baseAddress, name.baseAddress, 0),
                    OSSL_PARAM_construct_end(),
                ]
                return bytes.withUnsafeBytes { secret in
                    // A zero-length key still needs a non-NULL pointer, or OpenSSL keeps the old key.
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { empty in
                        let keyPointer = secret.count > 0 ? secret.baseAddress! : UnsafeRawPointer(empty.baseAddress!)
                        return EVP_MAC_init(
                            context, keyPointer.assumingMemoryBound(to: UInt8.self), secret.count, &parameters)
                    }
                }
            }
        }
        guard initialised == 1 else {
            EVP_MAC_CTX_free(context)
            throw SigningError.openSSL("EVP_MAC_init (setting the key)")
        }
        self.macLength = EVP_MAC_CTX_get_mac_size(context)
        self.prototype = context
        self.pool = Mutex([])
    }

    deinit {
        pool.withLock { contexts in
            for context in contexts { EVP_MAC_CTX_free(context.pointer) }
            contexts.removeAll()
        }
        EVP_MAC_CTX_free(prototype)
    }

    /// Computes the MAC into `output` (at least ``macLength`` bytes) and returns
    /// the number of bytes written.
    package func authenticate(
        _ data: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(SigningError) -> Int {
        let context = try checkOut()
        defer { checkIn(context) }
        return try Self.run(context.pointer, data, output)
    }

    /// Resets a keyed context (keeping its key), feeds `data` and writes the MAC.
    private static func run(
        _ context: OpaquePointer,
        _ data: UnsafeRawBufferPointer,
        _ output: UnsafeMutableRawBufferPointer
    ) throws(SigningError) -> Int {
        guard EVP_MAC_init(context, nil, 0, nil) == 1 else { throw SigningError.openSSL("EVP_MAC_init") }
        if let base = data.baseAddress, data.count > 0 {
            guard EVP_MAC_update(context, base.assumingMemoryBound(to: UInt8.self), data.count) == 1 else {
                throw SigningError.openSSL("EVP_MAC_update")
            }
        }
        var written = 0
        guard
            EVP_MAC_final(
                context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written, output.count) == 1
        else { throw SigningError.openSSL("EVP_MAC_final") }
        return written
    }

    /// Takes an idle keyed context, or duplicates the prototype when none is idle.
    private func checkOut() throws(SigningError) -> ContextHandle {
        try pool.withLock { contexts throws(SigningError) -> ContextHandle in
            if let context = contexts.popLast() { return context }
            guard let copy = EVP_MAC_CTX_dup(prototype) else { throw SigningError.openSSL("EVP_MAC_CTX_dup") }
            return ContextHandle(pointer: copy)
        }
    }

    /// Returns a context to the pool, or frees it when the pool is full.
    private func checkIn(_ context: ContextHandle) {
        let kept = pool.withLock { contexts in
            guard contexts.count < Self.maximumIdleContexts else { return false }
            contexts.append(context)
            return true
        }
        if !kept { EVP_MAC_CTX_free(context.pointer) }
    }

    /// An `EVP_MAC_CTX` pointer that can sit in the pool.
    ///
    /// `@unchecked Sendable`: a context in the pool is idle; whoever takes it out is its only user
    /// until it is put back.
    private struct ContextHandle: @unchecked Sendable {
        let pointer: OpaquePointer
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
