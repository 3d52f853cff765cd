public import Foundation
import ServiceCore

/// A refund of part or all of a charge, as `POST /v1/charges/{id}/refunds` answers it.
public struct Refund: Codable, Sendable, Equatable {
    /// The refund's id.
    public var id: String
    /// The refunded charge's id.
    public var chargeId: String
    /// The amount given back, in the charge's currency.
    public var amount: Money
    /// When it was made (RFC 3339 on the wire).
    public var createdAt: Date

    /// Creates a refund.
    public init(id: String, chargeId: String, amount: Money, createdAt: Date) {
        self.id = id
        self.chargeId = chargeId
        self.amount = amount
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, chargeId, amount, createdAt
    }

    /// Decodes a refund; `createdAt` is RFC 3339 text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        chargeId = try container.decode(String.self, forKey: .chargeId)
        amount = try container.decode(Money.self, forKey: .amount)
        createdAt = try container.decodeRFC3339(forKey: .createdAt)
    }

    /// Encodes a refund with `createdAt` as RFC 3339 text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(chargeId, forKey: .chargeId)
        try container.encode(amount, forKey: .amount)
        try container.encodeRFC3339(createdAt, forKey: .createdAt)
    }
}
