import Foundation

/// The state the three upstreams share: the user directory (which the feed's timelines
/// follow), the posts, and the payment ledger.
struct SandboxState: Sendable {
    var users: any UserDirectory
    var posts: any PostStore
    var ledger: any PaymentLedger

    /// The seeded sandbox: users `alice`, `bob` and `carol` with some follows, their EUR
    /// wallets, three posts each, and the tokens `sandbox-<user>` valid for `tokenLifetime`.
    /// - Parameters:
    ///   - now: The start time; seeded posts are dated before it, tokens expire after it.
    ///   - tokenLifetime: How long the seeded tokens stay active.
    ///   - ledger: The payment ledger, seeded by its maker; a seeded ``InMemoryPaymentLedger``
    ///     unless given.
    static func seeded(now: Date, tokenLifetime: Duration, ledger: (any PaymentLedger)? = nil) -> SandboxState {
        let users = InMemoryUserDirectory()
        let expiresAt = Date(
            timeIntervalSince1970: (now.timeIntervalSince1970 + Double(tokenLifetime.components.seconds)).rounded(.down)
        )
        for user in SandboxSeed.users {
            users.addUser(id: user.id, displayName: user.displayName)
            users.addSession(token: "sandbox-\(user.id)", userID: user.id, expiresAt: expiresAt)
        }
        for (actor, target) in SandboxSeed.follows {
            _ = users.follow(actor: actor, target: target)
        }
        let posts = InMemoryPostStore()
        for (index, seed) in SandboxSeed.posts.enumerated() {
            let age = TimeInterval((SandboxSeed.posts.count - index) * 37 * 60)
            let post = posts.create(
                authorID: seed.author, text: seed.text, attachments: [], at: now.addingTimeInterval(-age))
            for liker in seed.likedBy { _ = posts.like(post: post.id, by: liker) }
        }
        return SandboxState(users: users, posts: posts, ledger: ledger ?? InMemoryPaymentLedger(book: .seeded))
    }
}
