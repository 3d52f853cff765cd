import EventLoops
import Foundation
import Synchronization

/// The default ``PaymentLedger``: the books and the kept answers in memory behind one lock, so
/// each operation and the storing of its answer are one atomic step, and a concurrent repeat
/// waits for the first answer on the lock.
final class InMemoryPaymentLedger: PaymentLedger {
    /// How long an answer is kept for its key: at least 24 hours, as the contract requires.
    static let retention: TimeInterval = 24 * 60 * 60

    private struct Record {
        var fingerprint: [UInt8]
        var answer: StoredAnswer
        var storedAt: Date
    }

    private struct State {
        var book: LedgerBook
        var records: [String: Record] = [:]
        /// Keys in the order stored, for dropping expired records oldest first.
        var order = FIFOQueue<(key: String, storedAt: Date)>()
    }

    private let state: Mutex<State>

    /// Creates a ledger over `book`.
    init(book: LedgerBook = LedgerBook()) {
        state = Mutex(State(book: book))
    }

    /// The books as they are now (for tests).
    var book: LedgerBook { state.withLock { $0.book } }

    func wallet(_ user: String) -> WalletRecord? {
        state.withLock { $0.book.wallets[user] }
    }

    func charge(_ id: String) -> ChargeRecord? {
        state.withLock { $0.book.charges[id] }
    }

    func perform(
        _ request: IdempotentRequest,
        now: Date,
        render: (Result<LedgerEntry, Problem>) -> StoredAnswer
    ) -> IdempotentOutcome {
        let recordKey = request.scope + "\u{0}" + request.key
        return state.withLock { state in
            Self.dropExpired(&state, now: now)
            if let record = state.records[recordKey] {
                return record.fingerprint == request.fingerprint ? .replayed(record.answer) : .keyReused
            }
            // The book's operations check everything before they change anything, so a failure
            // leaves the book as it was.
            let result = request.order.flatMap { order in
                Result { () throws(LedgerFailure) in try state.book.apply(order, at: now) }.mapError(\.problem)
            }
            let answer = render(result)
            if answer.status < 500 {
                state.records[recordKey] = Record(fingerprint: request.fingerprint, answer: answer, storedAt: now)
                state.order.append((recordKey, now))
            }
            return .performed(answer)
        }
    }

    private static func dropExpired(_ state: inout State, now: Date) {
        while let entry = state.order.first, now.timeIntervalSince(entry.storedAt) > retention {
            _ = state.order.popFirst()
            if state.records[entry.key]?.storedAt == entry.storedAt { state.records[entry.key] = nil }
        }
    }
}
