/// The three sandbox keys, one per module: what the upstreams verify with and what the daemon
/// signs with.
///
/// ```swift
/// let keys = try SandboxKeys.generate()                       // fresh random keys
/// let keys = try SandboxKeys.load(fromDirectory: "/etc/swifty/keys")   // user-1.key, feed-1.key, payment-1.key
/// let signer = try RequestSigner(key: keys.user.signingKey)
/// ```
public struct SandboxKeys: Sendable {
    /// The user module's key.
    public let user: SandboxKey
    /// The feed module's key.
    public let feed: SandboxKey
    /// The payment module's key.
    public let payment: SandboxKey

    /// The length of generated secrets, in bytes.
    public static let generatedSecretLength = 32

    /// Groups three keys.
    /// - Throws: ``SandboxError`` with code `invalidKey` when a key belongs to another upstream.
    public init(user: SandboxKey, feed: SandboxKey, payment: SandboxKey) throws(SandboxError) {
        for (key, service) in [(user, SandboxService.user), (feed, .feed), (payment, .payment)]
        where key.service != service {
            throw SandboxError(
                .invalidKey, service: service, "the key \"\(key.keyID)\" belongs to the \(key.service) upstream")
        }
        self.user = user
        self.feed = feed
        self.payment = payment
    }

    /// The key of one upstream.
    public subscript(service: SandboxService) -> SandboxKey {
        switch service {
        case .user: user
        case .feed: feed
        case .payment: payment
        }
    }

    /// The three keys: user, feed, payment.
    public var all: [SandboxKey] { [user, feed, payment] }

    /// Fresh keys of ``generatedSecretLength`` random bytes each, from the system's
    /// cryptographically secure generator (`getrandom(2)` on Linux).
    /// - Parameter keyIDs: Key ids to use instead of the modules' defaults.
    /// - Throws: ``SandboxError`` with code `invalidKey` for an invalid key id.
    public static func generate(keyIDs: [SandboxService: String] = [:]) throws(SandboxError) -> SandboxKeys {
        var generator = SystemRandomNumberGenerator()
        func make(_ service: SandboxService) throws(SandboxError) -> SandboxKey {
            var secret = [UInt8](repeating: 0, count: generatedSecretLength)
            for index in secret.indices { secret[index] = generator.next() }
            return try SandboxKey(service: service, keyID: keyIDs[service], secret: secret)
        }
        return try SandboxKeys(user: make(.user), feed: make(.feed), payment: make(.payment))
    }
}
