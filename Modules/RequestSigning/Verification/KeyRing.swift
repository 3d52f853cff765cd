/// The keys a verifier trusts (or a daemon signs with), by `keyid`.
///
/// Several keys may serve one module at once: during a rotation the new key is added, senders
/// move to it, and the old one is removed later. The verifier takes the key and its algorithm
/// from here, never from the message.
public struct KeyRing: Sendable {
    /// The keys, in the order given.
    public let keys: [SigningKey]
    private let byID: [String: SigningKey]

    /// Creates a ring.
    /// - Throws: ``SigningError`` with code `invalidKey` when two keys share an identifier.
    public init(_ keys: [SigningKey]) throws(SigningError) {
        var byID: [String: SigningKey] = [:]
        for key in keys {
            guard byID[key.id] == nil else {
                throw SigningError(.invalidKey, "the key id \"\(key.id)\" appears more than once in the key ring")
            }
            byID[key.id] = key
        }
        self.keys = keys
        self.byID = byID
    }

    /// The key with this identifier, or `nil`.
    public subscript(keyID: String) -> SigningKey? { byID[keyID] }

    /// The keys bound to a module (its `tag`), in the order given; the first is the one to sign
    /// with.
    public func keys(forModule module: String) -> [SigningKey] { keys.filter { $0.tag == module } }
}
