public import Foundation
import ServiceCore

/// A charge: money moved from a payer's wallet to a payee's, as `POST /v1/charges` and
/// `GET /v1/charges/{id}` answer it.
public struct Charge: Codable, Sendable, Equatable {
    /// The charge's id.
    public var id: String
    /// The paying user's id.
    public var payerId: String
    /// The paid user's id.
    public var payeeId: String
    /// The amount charged.
    public var amount: Money
    /// How much has been refunded so far, in the same currency (0 when nothing).
    public var refunded: Money
    /// The payer's note, if any.
    public var memo: String?
    /// Where the charge stands.
    public var status: ChargeStatus
    /// When it was made (RFC 3339 on the wire).
    public var createdAt: Date

    /// Creates a charge.
    public init(
        id: String,
        payerId: String,
        payeeId: String,
        amount: Money,
        refunded: Money,
        memo: String? = nil,
        status: ChargeStatus,
        createdAt: Date
    ) {
        self.id = id
        self.payerId = payerId
        self.payeeId = payeeId
        self.amount = amount
        self.refunded = refunded
        self.memo = memo
        self.status = status
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, payerId, payeeId, amount, refunded, memo, status, createdAt
    }

    /// Decodes a charge; `createdAt` is RFC 3339 text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        payerId = try container.decode(String.self, forKey: .payerId)
        payeeId = try container.decode(String.self, forKey: .payeeId)
        amount = try container.decode(Money.self, forKey: .amount)
        refunded = try container.decode(Money.self, forKey: .refunded)
        memo = try container.decodeIfPresent(String.self, forKey: .memo)
        status = try container.decode(ChargeStatus.self, forKey: .status)
        createdAt = try container.decodeRFC3339(forKey: .createdAt)
    }

    /// Encodes a charge with `createdAt` as RFC 3339 text; no `memo` member when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(payerId, forKey: .payerId)
        try container.encode(payeeId, forKey: .payeeId)
        try container.encode(amount, forKey: .amount)
        try container.encode(refunded, forKey: .refunded)
        try container.encodeIfPresent(memo, forKey: .memo)
        try container.encode(status, forKey: .status)
        try container.encodeRFC3339(createdAt, forKey: .createdAt)
    }
}
