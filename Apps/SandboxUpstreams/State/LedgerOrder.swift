/// A charge to make: who pays whom how much (checked as the contract requires).
struct ChargeOrder: Sendable, Equatable {
    var payer: String
    var payee: String
    var amountMinor: Int64
    var currency: String
    var memo: String?
}

/// A refund to make: how much of which charge.
struct RefundOrder: Sendable, Equatable {
    var chargeID: String
    var amountMinor: Int64
}

/// What a money-moving request asks of the ledger.
enum LedgerOrder: Sendable, Equatable {
    case charge(ChargeOrder)
    case refund(RefundOrder)
}

/// What an order made: the new charge or refund.
enum LedgerEntry: Sendable, Equatable {
    case charge(ChargeRecord)
    case refund(RefundRecord)
}
