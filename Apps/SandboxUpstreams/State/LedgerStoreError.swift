/// The ledger's store could not be reached or answered nonsense: the request is answered 503
/// `store_unavailable` naming the store, and nothing is known to have moved without its answer
/// being kept.
struct LedgerStoreError: Error, Sendable, CustomStringConvertible {
    /// The store, for example `Redis at 127.0.0.1:6379` (never a credential).
    var store: String
    /// What failed, for example `connectionFailed` (never a command's arguments).
    var reason: String

    var description: String { "the payment ledger's store (\(store)) is unavailable: \(reason)" }

    /// The 503 answer, with `Retry-After`.
    var problem: Problem {
        Problem(.storeUnavailable, description + "; retry later", headers: [("Retry-After", "1")])
    }
}
