import Foundation
import ServiceCore

/// The payment upstream's answer bodies (`docs/upstreams-payment.md`, section 4).
enum PaymentWire {
    /// An amount: integer minor units and an ISO 4217 code.
    struct Money: Codable {
        var amountMinor: Int64
        var currency: String
    }

    /// A wallet.
    struct Wallet: Encodable {
        var userId: String
        var balance: Money

        init(_ record: WalletRecord) {
            userId = record.userID
            balance = Money(amountMinor: record.balanceMinor, currency: record.currency)
        }
    }

    /// A charge; `memo` is left out when there is none.
    struct Charge: Encodable {
        var id: String
        var payerId: String
        var payeeId: String
        var amount: Money
        var refunded: Money
        var memo: String?
        var status: String
        var createdAt: String

        init(_ record: ChargeRecord) {
            id = record.id
            payerId = record.payerID
            payeeId = record.payeeID
            amount = Money(amountMinor: record.amountMinor, currency: record.currency)
            refunded = Money(amountMinor: record.refundedMinor, currency: record.currency)
            memo = record.memo
            status = record.status
            createdAt = RFC3339Timestamp.string(from: record.createdAt)
        }
    }

    /// A refund.
    struct Refund: Encodable {
        var id: String
        var chargeId: String
        var amount: Money
        var createdAt: String

        init(_ record: RefundRecord) {
            id = record.id
            chargeId = record.chargeID
            amount = Money(amountMinor: record.amountMinor, currency: record.currency)
            createdAt = RFC3339Timestamp.string(from: record.createdAt)
        }
    }
}
