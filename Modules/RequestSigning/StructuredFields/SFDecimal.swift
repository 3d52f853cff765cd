/// An RFC 8941 decimal, held exactly as a whole number of thousandths.
public struct SFDecimal: Hashable, Sendable, CustomStringConvertible {
    /// The value times 1000 (`1.5` is `1500`).
    public var thousandths: Int64

    /// Creates a decimal from its value in thousandths.
    public init(thousandths: Int64) { self.thousandths = thousandths }

    /// The serialised form (`1.5`, `-0.25`, `2.0`).
    public var description: String {
        var bytes: [UInt8] = []
        SFSerializer.appendDecimal(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
