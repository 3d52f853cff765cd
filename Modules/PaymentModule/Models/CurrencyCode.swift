/// An ISO 4217 alphabetic currency code such as `EUR`, encoded in JSON as that string.
///
/// Any text can be held (an answer naming a currency this list does not know still decodes),
/// but only a known code passes input validation: ``isKnown``. The list covers the common
/// currencies with their minor-unit exponent (`EUR` 2, `JPY` 0, `KWD` 3).
public struct CurrencyCode: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The code as sent, for example `EUR`.
    public let rawValue: String

    /// Wraps a code without checking it; see ``isKnown``.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a code without checking it; see ``isKnown``.
    public init(_ code: String) {
        self.rawValue = code
    }

    /// The number of decimal places of the minor unit (`EUR` 2: 1250 minor units are 12.50), or
    /// `nil` for a code not in ``minorUnitExponents``.
    public var minorUnitExponent: Int? { Self.minorUnitExponents[rawValue] }

    /// Whether the code is in ``minorUnitExponents``.
    public var isKnown: Bool { minorUnitExponent != nil }

    /// The code.
    public var description: String { rawValue }

    /// The known codes and their minor-unit exponents (ISO 4217).
    public static let minorUnitExponents: [String: Int] = [
        // Exponent 0: amounts are whole units.
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
        "UGX": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        // Exponent 2: hundredths.
        "AED": 2, "ARS": 2, "AUD": 2, "BGN": 2, "BRL": 2, "CAD": 2, "CHF": 2, "CNY": 2, "COP": 2, "CZK": 2,
        "DKK": 2, "EGP": 2, "EUR": 2, "GBP": 2, "HKD": 2, "HUF": 2, "IDR": 2, "ILS": 2, "INR": 2, "KES": 2,
        "MAD": 2, "MXN": 2, "MYR": 2, "NGN": 2, "NOK": 2, "NZD": 2, "PEN": 2, "PHP": 2, "PLN": 2, "QAR": 2,
        "RON": 2, "RSD": 2, "SAR": 2, "SEK": 2, "SGD": 2, "THB": 2, "TRY": 2, "TWD": 2, "UAH": 2, "USD": 2,
        "ZAR": 2,
        // Exponent 3: thousandths.
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        // Exponent 4: units of account.
        "CLF": 4, "UYW": 4,
    ]

    /// Euro.
    public static let eur = CurrencyCode("EUR")
    /// US dollar.
    public static let usd = CurrencyCode("USD")
    /// Pound sterling.
    public static let gbp = CurrencyCode("GBP")
    /// Swiss franc.
    public static let chf = CurrencyCode("CHF")
    /// Yen (no minor unit).
    public static let jpy = CurrencyCode("JPY")
}
