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

/// The payment domain's state: a ``LedgerBook`` and the answers kept per idempotency key.
///
/// ``perform(scope:key:fingerprint:now:_:)`` runs an operation and stores its answer in one
/// atomic step, so money never moves without the answer being kept, and a repeat with the
/// same key never moves it again. Implement it to back the sandbox with another store (one
/// transaction per call); ``InMemoryPaymentLedger`` is the default.
protocol PaymentLedger: Sendable {
    /// Reads the books.
    func read<T: Sendable>(_ body: (LedgerBook) -> T) -> T
    /// Runs `operation` once per (`scope`, `key`): a first call runs it and keeps its answer
    /// (unless 5xx) with `fingerprint`; a repeat gets the kept answer when the fingerprint is
    /// the same, ``IdempotentOutcome/keyReused`` when not.
    func perform(
        scope: String,
        key: String,
        fingerprint: [UInt8],
        now: Date,
        _ operation: (inout LedgerBook) -> StoredAnswer
    ) -> IdempotentOutcome
}
