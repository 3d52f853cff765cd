/// The ISO 4217 codes the payment upstream accepts (`docs/upstreams-payment.md`, section 4), with
/// their minor-unit exponents.
enum SupportedCurrencies {
    /// Code to exponent.
    static let exponents: [String: Int] = {
        var table: [String: Int] = [:]
        let groups: [(Int, String)] = [
            (0, "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF"),
            (
                2,
                "AED ARS AUD BGN BRL CAD CHF CNY COP CZK DKK EGP EUR GBP HKD HUF IDR ILS INR KES MAD MXN MYR NGN "
                    + "NOK NZD PEN PHP PLN QAR RON RSD SAR SEK SGD THB TRY TWD UAH USD ZAR"
            ),
            (3, "BHD IQD JOD KWD LYD OMR TND"),
            (4, "CLF UYW"),
        ]
        for (exponent, codes) in groups {
            for code in codes.split(separator: " ") { table[String(code)] = exponent }
        }
        return table
    }()

    /// Whether the code is supported.
    static func contains(_ code: String) -> Bool { exponents[code] != nil }
}
