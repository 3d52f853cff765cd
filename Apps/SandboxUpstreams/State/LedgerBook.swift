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
/// money. A value: a ``PaymentLedger`` runs each operation on it atomically.
struct LedgerBook: Sendable {
    var wallets: [String: WalletRecord] = [:]
    var charges: [String: ChargeRecord] = [:]
    var refunds: [String: RefundRecord] = [:]
    var nextCharge = 1
    var nextRefund = 1

    /// A new charge: moves `amountMinor` from the payer's wallet to the payee's.
    /// - Throws: 404 `wallet_not_found`, 422 `currency_mismatch` or `insufficient_funds`.
    mutating func charge(
        payer: String,
        payee: String,
        amountMinor: Int64,
        currency: String,
        memo: String?,
        at date: Date
    ) throws(Problem) -> ChargeRecord {
        guard let payerWallet = wallets[payer] else {
            throw Problem(.walletNotFound, "the payer \"\(payer)\" has no wallet")
        }
        guard let payeeWallet = wallets[payee] else {
            throw Problem(.walletNotFound, "the payee \"\(payee)\" has no wallet")
        }
        guard payerWallet.currency == currency else {
            throw Problem(
                .currencyMismatch, "the amount is in \(currency) but the payer's wallet is in \(payerWallet.currency)")
        }
        guard payeeWallet.currency == currency else {
            throw Problem(
                .currencyMismatch, "the amount is in \(currency) but the payee's wallet is in \(payeeWallet.currency)")
        }
        guard payerWallet.balanceMinor >= amountMinor else {
            throw Problem(.insufficientFunds, "the payer's balance is below the amount")
        }
        let (credited, overflow) = payeeWallet.balanceMinor.addingReportingOverflow(amountMinor)
        guard !overflow else { throw Problem(.invalidRequest, "the payee's balance cannot hold this amount") }
        wallets[payer]?.balanceMinor -= amountMinor
        wallets[payee]?.balanceMinor = credited
        let charge = ChargeRecord(
            id: "ch_\(nextCharge)", payerID: payer, payeeID: payee, amountMinor: amountMinor, currency: currency,
            refundedMinor: 0, memo: memo, createdAt: Self.wholeSeconds(date))
        nextCharge += 1
        charges[charge.id] = charge
        return charge
    }

    /// A refund of part of a charge: moves `amountMinor` back from the payee to the payer.
    /// - Throws: 404 `charge_not_found`, 422 `refund_exceeds_charge` or `insufficient_funds`.
    mutating func refund(charge id: String, amountMinor: Int64, at date: Date) throws(Problem) -> RefundRecord {
        guard let charge = charges[id] else { throw Problem(.chargeNotFound, "no charge has the id \"\(id)\"") }
        let left = charge.amountMinor - charge.refundedMinor
        guard amountMinor <= left else {
            throw Problem(
                .refundExceedsCharge, "the refund of \(amountMinor) is more than the \(left) left to refund")
        }
        guard let payeeWallet = wallets[charge.payeeID], let payerWallet = wallets[charge.payerID] else {
            throw Problem(.walletNotFound, "a wallet of this charge no longer exists")
        }
        guard payeeWallet.balanceMinor >= amountMinor else {
            throw Problem(.insufficientFunds, "the payee's balance is below the refund")
        }
        let (credited, overflow) = payerWallet.balanceMinor.addingReportingOverflow(amountMinor)
        guard !overflow else { throw Problem(.invalidRequest, "the payer's balance cannot hold this amount") }
        wallets[charge.payeeID]?.balanceMinor -= amountMinor
        wallets[charge.payerID]?.balanceMinor = credited
        charges[id]?.refundedMinor += amountMinor
        let refund = RefundRecord(
            id: "re_\(nextRefund)", chargeID: id, amountMinor: amountMinor, currency: charge.currency,
            createdAt: Self.wholeSeconds(date))
        nextRefund += 1
        refunds[refund.id] = refund
        return refund
    }

    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
