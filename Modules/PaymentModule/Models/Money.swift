/// An amount of money: an integer count of the currency's minor unit, never a floating-point number.
///
/// `Money(amountMinor: 1250, currency: .eur)` is 12.50 EUR; JSON `{"amountMinor":1250,"currency":"EUR"}`.
public struct Money: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The amount in minor units (cents for `EUR`, yen for `JPY`).
    public var amountMinor: Int64
    /// The currency.
    public var currency: CurrencyCode

    /// Creates an amount.
    public init(amountMinor: Int64, currency: CurrencyCode) {
        self.amountMinor = amountMinor
        self.currency = currency
    }

    /// `12.50 EUR`, computed with integers; `1250 minor units of XYZ` for an unknown currency.
    public var description: String {
        guard let exponent = currency.minorUnitExponent else { return "\(amountMinor) minor units of \(currency)" }
        guard exponent > 0 else { return "\(amountMinor) \(currency)" }
        let sign = amountMinor < 0 ? "-" : ""
        let magnitude = amountMinor.magnitude
        var scale: UInt64 = 1
        for _ in 0..<exponent { scale *= 10 }
        let fraction = String(magnitude % scale)
        let padded = String(repeating: "0", count: exponent - fraction.count) + fraction
        return "\(sign)\(magnitude / scale).\(padded) \(currency)"
    }
}
