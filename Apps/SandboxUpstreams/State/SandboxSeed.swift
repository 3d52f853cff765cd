/// The data the sandbox starts with (documented in `docs/sandbox.md`).
enum SandboxSeed {
    /// The users and their display names.
    static let users: [(id: String, displayName: String)] = [
        ("alice", "Alice Liddell"),
        ("bob", "Bob Cratchit"),
        ("carol", "Carol Jenkins"),
    ]

    /// Who follows whom, oldest follow first.
    static let follows: [(actor: String, target: String)] = [
        ("alice", "bob"),
        ("bob", "alice"),
        ("carol", "alice"),
        ("carol", "bob"),
    ]

    /// The wallets: balances in minor units.
    static let wallets: [(user: String, balanceMinor: Int64, currency: String)] = [
        ("alice", 100_000, "EUR"),
        ("bob", 50_000, "EUR"),
        ("carol", 25_000, "EUR"),
    ]

    /// The posts, oldest first, and who likes them.
    static let posts: [(author: String, text: String, likedBy: [String])] = [
        ("alice", "Down the rabbit hole: first day on the sandbox.", ["bob", "carol"]),
        ("bob", "Counting coins by candlelight.", []),
        ("carol", "Hello from carol!", ["alice"]),
        ("alice", "Curiouser and curiouser.", []),
        ("bob", "Paid the rent, one cent at a time.", ["alice"]),
        ("carol", "Who wants to split lunch?", []),
        ("alice", "Tea party at six.", ["carol"]),
        ("bob", "Merry everything.", []),
        ("carol", "Lunch was great, thanks bob.", ["bob"]),
    ]
}
