import Foundation
import HTTPTypes
import ServiceCore

/// An answer kept for an idempotency key: what the first request got, byte for byte.
struct StoredAnswer: Sendable, Equatable {
    var status: Int
    /// The fields to repeat (`Content-Type`, `Location`).
    var headers: HTTPHeaders
    var body: Data
}

/// What became of an idempotent operation.
enum IdempotentOutcome: Sendable, Equatable {
    /// The operation ran now; its answer (stored unless it is a 5xx).
    case performed(StoredAnswer)
    /// The key was used before with the same fingerprint: the first answer.
    case replayed(StoredAnswer)
    /// The key was used before with another fingerprint.
    case keyReused
    /// The key's first request is still being processed.
    case keyInUse
}

/// A money-moving request as the ledger sees it: its idempotency key and what it asks.
struct IdempotentRequest: Sendable {
    /// Where the key is kept: the signing tag and the payer, so that one payer's key never meets
    /// another's.
    var scope: String
    /// The `Idempotency-Key`.
    var key: String
    /// The SHA-256 of the method, path and canonical JSON body: a repeat with another is refused.
    var fingerprint: [UInt8]
    /// The order, or the problem that refused the request before it reached the books (kept
    /// with its key like any other answer).
    var order: Result<LedgerOrder, Problem>
}

/// The payment domain's state: wallets, charges and refunds, and the answers kept per
/// idempotency key.
///
/// ``perform(_:now:render:)`` runs an order and stores its answer in one atomic step, so money
/// never moves without the answer being kept, and a repeat with the same key never moves it
/// again. ``InMemoryPaymentLedger`` is the default; ``RedisPaymentLedger`` shares the books
/// between sandbox sets. Implement it for another store: every method may wait on the store,
/// and one that cannot reach it throws ``LedgerStoreError``, answered with 503.
protocol PaymentLedger: Sendable {
    /// The user's wallet, or `nil`.
    func wallet(_ user: String) async throws(LedgerStoreError) -> WalletRecord?
    /// The charge with this id, or `nil`.
    func charge(_ id: String) async throws(LedgerStoreError) -> ChargeRecord?
    /// Runs the request's order once per (`scope`, `key`): a first call runs it, renders its
    /// outcome with `render` and keeps the answer (unless 5xx) with the fingerprint; a repeat
    /// gets the kept answer when the fingerprint is the same, ``IdempotentOutcome/keyReused``
    /// when not, and ``IdempotentOutcome/keyInUse`` while the first is still running.
    func perform(
        _ request: IdempotentRequest,
        now: Date,
        render: (Result<LedgerEntry, Problem>) -> StoredAnswer
    ) async throws(LedgerStoreError) -> IdempotentOutcome
}
