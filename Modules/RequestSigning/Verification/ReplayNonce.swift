/// What a ``ReplayGuard`` remembers: a signature's nonce and the key that made it.
///
/// Nonces are remembered per key, so the pair is one value. The verifier makes it from the
/// bytes of the `Signature-Input` field; a pair of up to 47 bytes (key id, a separator, nonce)
/// whose key id holds no NUL byte is packed into six machine words, so that the in-memory guard
/// stores and compares it without allocating; a longer one is kept as two strings. Two values
/// are equal exactly when their key ids and nonces are.
public struct ReplayNonce: Sendable, Hashable, CustomStringConvertible {
    /// The pair, packed when it fits.
    enum Storage: Sendable, Hashable {
        case packed(ReplayTable.Key)
        case text(keyID: String, nonce: String)
    }

    let storage: Storage

    /// A pair given as text.
    /// - Parameters:
    ///   - keyID: The identifier of the key that made the signature.
    ///   - nonce: The signature's nonce.
    public init(keyID: String, nonce: String) {
        let packed = ByteText.withBytes(keyID) { key in
            ByteText.withBytes(nonce) { nonce in ReplayTable.Key(keyID: key, nonce: nonce) }
        }
        storage = packed.map(Storage.packed) ?? .text(keyID: keyID, nonce: nonce)
    }

    /// A pair read from bytes (the verifier's, from the field where the nonce lies).
    init(keyID: UnsafeBufferPointer<UInt8>, nonce: UnsafeBufferPointer<UInt8>) {
        if let packed = ReplayTable.Key(keyID: keyID, nonce: nonce) {
            storage = .packed(packed)
        } else {
            storage = .text(
                keyID: String(decoding: keyID, as: UTF8.self), nonce: String(decoding: nonce, as: UTF8.self))
        }
    }

    /// The identifier of the key that made the signature.
    public var keyID: String { withUTF8 { keyID, _ in String(decoding: keyID, as: UTF8.self) } }

    /// The signature's nonce.
    public var nonce: String { withUTF8 { _, nonce in String(decoding: nonce, as: UTF8.self) } }

    /// Calls `body` with the UTF-8 bytes of the key id and of the nonce, without making strings.
    public func withUTF8<R, E: Error>(
        _ body: (_ keyID: UnsafeBufferPointer<UInt8>, _ nonce: UnsafeBufferPointer<UInt8>) throws(E) -> R
    ) throws(E) -> R {
        switch storage {
        case .packed(let key):
            return try key.withParts(body)
        case .text(var keyID, var nonce):
            let result = keyID.withUTF8 { keyID in
                nonce.withUTF8 { nonce in Result { () throws(E) -> R in try body(keyID, nonce) } }
            }
            return try result.get()
        }
    }

    /// `keyid/nonce`, for messages (a nonce is not a secret: it travels in the clear).
    public var description: String { "\(keyID)/\(nonce)" }
}
