/// Which side of a charge a check is about.
enum LedgerParty: String, Sendable, Equatable {
    case payer
    case payee
}

/// Why the ledger refused an order: the first check that failed, the same from ``LedgerBook``
/// and from ``RedisPaymentLedger``'s script. Nothing moved.
enum LedgerFailure: Error, Sendable, Equatable {
    /// The party's user has no wallet.
    case walletNotFound(LedgerParty, String)
    /// The order's currency is not the party's wallet's.
    case currencyMismatch(LedgerParty, requested: String, wallet: String)
    /// The wallet to debit holds less than the amount: the payer's for a charge, the payee's
    /// for a refund.
    case insufficientFunds(LedgerParty)
    /// The wallet to credit would go above ``LedgerBook/maximumBalanceMinor``.
    case balanceLimit(LedgerParty)
    /// No charge has this id.
    case chargeNotFound(String)
    /// The refund is more than what is left to refund of its charge.
    case refundExceedsCharge(amount: Int64, left: Int64)
    /// A wallet of the charge to refund no longer exists.
    case chargeWalletMissing

    /// The contract's problem for the failure.
    var problem: Problem {
        switch self {
        case .walletNotFound(let party, let user):
            return Problem(.walletNotFound, "the \(party.rawValue) \"\(user)\" has no wallet")
        case .currencyMismatch(let party, let requested, let wallet):
            return Problem(
                .currencyMismatch, "the amount is in \(requested) but the \(party.rawValue)'s wallet is in \(wallet)")
        case .insufficientFunds(let party):
            return Problem(
                .insufficientFunds,
                "the \(party.rawValue)'s balance is below the \(party == .payer ? "amount" : "refund")")
        case .balanceLimit(let party):
            return Problem(.invalidRequest, "the \(party.rawValue)'s balance cannot hold this amount")
        case .chargeNotFound(let id):
            return Problem(.chargeNotFound, "no charge has the id \"\(id)\"")
        case .refundExceedsCharge(let amount, let left):
            return Problem(
                .refundExceedsCharge, "the refund of \(amount) is more than the \(left) left to refund")
        case .chargeWalletMissing:
            return Problem(.walletNotFound, "a wallet of this charge no longer exists")
        }
    }
}
