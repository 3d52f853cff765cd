import Foundation

/// A wallet: one currency, a balance in minor units.
struct WalletRecord: Sendable, Equatable {
    var userID: String
    var balanceMinor: Int64
    var currency: String
}

/// A charge and how much of it was refunded.
struct ChargeRecord: Sendable, Equatable {
    var id: String
    var payerID: String
    var payeeID: String
    var amountMinor: Int64
    var currency: String
    var refundedMinor: Int64
    var memo: String?
    var createdAt: Date

    /// `succeeded`, `partiallyRefunded` or `refunded`.
    var status: String {
        refundedMinor == 0 ? "succeeded" : refundedMinor < amountMinor ? "partiallyRefunded" : "refunded"
    }
}

/// A refund of part of a charge.
struct RefundRecord: Sendable, Equatable {
    var id: String
    var chargeID: String
    var amountMinor: Int64
    var currency: String
    var createdAt: Date
}

/// The payment domain's books: wallets, charges and refunds, with the operations that move
/// money. A value: ``InMemoryPaymentLedger`` runs each operation on it atomically.
///
/// Its checks are the business rules of the ledger; ``RedisPaymentLedger``'s script applies the
/// same checks in the same order, and the tests run both through the same cases.
struct LedgerBook: Sendable {
    /// The largest balance a wallet may hold: the largest amount JSON carries exactly (2^53 - 1),
    /// which a Lua number in Redis compares exactly too.
    static let maximumBalanceMinor = InputRules.maximumAmountMinor

    var wallets: [String: WalletRecord] = [:]
    var charges: [String: ChargeRecord] = [:]
    var refunds: [String: RefundRecord] = [:]
    var nextCharge = 1
    var nextRefund = 1

    /// The books as ``SandboxSeed`` describes them: the seeded wallets, no charges.
    static var seeded: LedgerBook {
        var book = LedgerBook()
        for wallet in SandboxSeed.wallets {
            book.wallets[wallet.user] = WalletRecord(
                userID: wallet.user, balanceMinor: wallet.balanceMinor, currency: wallet.currency)
        }
        return book
    }

    /// Runs an order with the next charge or refund id.
    /// - Throws: The ``LedgerFailure`` of the first check that fails; the books are unchanged then.
    mutating func apply(_ order: LedgerOrder, at date: Date) throws(LedgerFailure) -> LedgerEntry {
        switch order {
        case .charge(let charge):
            let record = try self.charge(charge, id: "ch_\(nextCharge)", at: date)
            nextCharge += 1
            return .charge(record)
        case .refund(let refund):
            let record = try self.refund(refund, id: "re_\(nextRefund)", at: date)
            nextRefund += 1
            return .refund(record)
        }
    }

    /// A new charge: moves the amount from the payer's wallet to the payee's.
    /// - Throws: ``LedgerFailure``: a wallet missing, a currency mismatch, the payer's funds, or
    ///   the payee's balance limit.
    mutating func charge(_ order: ChargeOrder, id: String, at date: Date) throws(LedgerFailure) -> ChargeRecord {
        guard let payerWallet = wallets[order.payer] else { throw .walletNotFound(.payer, order.payer) }
        guard let payeeWallet = wallets[order.payee] else { throw .walletNotFound(.payee, order.payee) }
        guard payerWallet.currency == order.currency else {
            throw .currencyMismatch(.payer, requested: order.currency, wallet: payerWallet.currency)
        }
        guard payeeWallet.currency == order.currency else {
            throw .currencyMismatch(.payee, requested: order.currency, wallet: payeeWallet.currency)
        }
        guard payerWallet.balanceMinor >= order.amountMinor else { throw .insufficientFunds(.payer) }
        guard payeeWallet.balanceMinor <= Self.maximumBalanceMinor - order.amountMinor else {
            throw .balanceLimit(.payee)
        }
        wallets[order.payer]?.balanceMinor -= order.amountMinor
        wallets[order.payee]?.balanceMinor += order.amountMinor
        let charge = ChargeRecord(order, id: id, at: date)
        charges[charge.id] = charge
        return charge
    }

    /// A refund of part of a charge: moves the amount back from the payee to the payer.
    /// - Throws: ``LedgerFailure``: the charge missing, more than is left to refund, a wallet
    ///   missing, the payee's funds, or the payer's balance limit.
    mutating func refund(_ order: RefundOrder, id: String, at date: Date) throws(LedgerFailure) -> RefundRecord {
        guard let charge = charges[order.chargeID] else { throw .chargeNotFound(order.chargeID) }
        let left = charge.amountMinor - charge.refundedMinor
        guard order.amountMinor <= left else { throw .refundExceedsCharge(amount: order.amountMinor, left: left) }
        guard let payeeWallet = wallets[charge.payeeID], let payerWallet = wallets[charge.payerID] else {
            throw .chargeWalletMissing
        }
        guard payeeWallet.balanceMinor >= order.amountMinor else { throw .insufficientFunds(.payee) }
        guard payerWallet.balanceMinor <= Self.maximumBalanceMinor - order.amountMinor else {
            throw .balanceLimit(.payer)
        }
        wallets[charge.payeeID]?.balanceMinor -= order.amountMinor
        wallets[charge.payerID]?.balanceMinor += order.amountMinor
        charges[order.chargeID]?.refundedMinor += order.amountMinor
        let refund = RefundRecord(order, id: id, currency: charge.currency, at: date)
        refunds[refund.id] = refund
        return refund
    }

    /// A date in whole seconds, as answers show it.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}

extension ChargeRecord {
    /// The record of a charge just made: nothing refunded, dated in whole seconds.
    init(_ order: ChargeOrder, id: String, at date: Date) {
        self.init(
            id: id, payerID: order.payer, payeeID: order.payee, amountMinor: order.amountMinor,
            currency: order.currency, refundedMinor: 0, memo: order.memo, createdAt: LedgerBook.wholeSeconds(date))
    }
}

extension RefundRecord {
    /// The record of a refund just made, in the charge's currency, dated in whole seconds.
    init(_ order: RefundOrder, id: String, currency: String, at date: Date) {
        self.init(
            id: id, chargeID: order.chargeID, amountMinor: order.amountMinor, currency: currency,
            createdAt: LedgerBook.wholeSeconds(date))
    }
}
