import RequestSigning

/// The `Idempotency-Key` the daemon sends upstream for an app client's key: the client's key
/// bound to the authenticated user, so one user's key never meets another's, whatever they
/// choose.
///
/// `k1-` and the hex SHA-256 of the user's length, the user and the client's key. Every daemon of
/// a fleet derives the same upstream key from the same user and client key (no per-process
/// secret), so a client's retry reaches the same idempotency record through any of them.
enum ScopedIdempotencyKey {
    /// Whether `key` is a valid client key: 1 to 255 visible ASCII characters (`!` to `~`).
    static func isValid(_ key: String) -> Bool {
        let bytes = key.utf8
        return (1...255).contains(bytes.count) && bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// The upstream key for `clientKey` sent by `user`.
    static func upstream(user: String, clientKey: String) -> String {
        var input: [UInt8] = []
        input.reserveCapacity(8 + user.utf8.count + clientKey.utf8.count)
        // The length comes first so that ("ab", "c") and ("a", "bc") differ.
        withUnsafeBytes(of: UInt64(user.utf8.count).bigEndian) { input.append(contentsOf: $0) }
        input.append(contentsOf: user.utf8)
        input.append(contentsOf: clientKey.utf8)
        // SHA-256 of a byte array cannot fail; the fallback keeps the signature non-throwing.
        let digest = (try? DigestAlgorithm.sha256.hash(input)) ?? []
        let hexDigits = Array("0123456789abcdef".utf8)
        var text = Array("k1-".utf8)
        text.reserveCapacity(3 + digest.count * 2)
        for byte in digest {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
