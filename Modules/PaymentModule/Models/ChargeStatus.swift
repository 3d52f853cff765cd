/// Where a charge stands, as its JSON `status` string.
public enum ChargeStatus: String, Codable, Sendable, Equatable, CaseIterable {
    /// The money moved; nothing has been refunded.
    case succeeded
    /// Part of the amount has been refunded.
    case partiallyRefunded
    /// The whole amount has been refunded.
    case refunded
}
