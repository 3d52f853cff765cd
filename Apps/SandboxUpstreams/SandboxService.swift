import FeedModule
import PaymentModule
import UserModule

/// One of the three sandbox upstreams, named after the feature module that calls it.
public enum SandboxService: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The user domain (`UserModule`): profiles, follows, token introspection.
    case user
    /// The feed domain (`FeedModule`): timelines, posts, likes.
    case feed
    /// The payment domain (`PaymentModule`): wallets, charges, refunds.
    case payment

    /// The feature module that calls this upstream, for example `UserModule`.
    public var moduleName: String {
        switch self {
        case .user: UserModuleIdentity.name
        case .feed: FeedModuleIdentity.name
        case .payment: PaymentModuleIdentity.name
        }
    }

    /// The key id the module signs with unless configured otherwise (`user-1`).
    public var defaultKeyID: String {
        switch self {
        case .user: UserModuleIdentity.keyID
        case .feed: FeedModuleIdentity.keyID
        case .payment: PaymentModuleIdentity.keyID
        }
    }

    /// The RFC 9421 `tag` the module signs with; the upstream accepts only this tag.
    public var tag: String {
        switch self {
        case .user: UserModuleIdentity.tag
        case .feed: FeedModuleIdentity.tag
        case .payment: PaymentModuleIdentity.tag
        }
    }

    /// `user`, `feed` or `payment`.
    public var description: String { rawValue }
}
