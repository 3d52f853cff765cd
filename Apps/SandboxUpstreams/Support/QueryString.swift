/// A raw query string split into decoded `name=value` pairs, as the contract encodes them:
/// `%XX` is decoded, `+` is taken literally.
struct QueryString {
    /// The pairs in order.
    let pairs: [(name: String, value: String)]

    /// Splits and decodes a raw query (without `?`).
    /// - Throws: 400 `invalid_request` for a malformed escape or text that is not UTF-8.
    init(_ raw: String?) throws(Problem) {
        var pairs: [(name: String, value: String)] = []
        for piece in (raw ?? "").utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = piece.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else {
                throw Problem(.invalidRequest, "the query holds a malformed percent-encoding")
            }
            guard let value = parts.count > 1 ? Self.decode(parts[1]) : "" else {
                throw Problem(.invalidRequest, "the query parameter \"\(name)\" holds a malformed percent-encoding")
            }
            pairs.append((name, value))
        }
        self.pairs = pairs
    }

    /// The only value of `name`, `nil` when absent.
    /// - Throws: 400 `invalid_request` when the parameter is repeated.
    func single(_ name: String) throws(Problem) -> String? {
        let values = pairs.filter { $0.name == name }
        guard values.count <= 1 else {
            throw Problem(.invalidRequest, "the query parameter \"\(name)\" is given \(values.count) times")
        }
        return values.first?.value
    }

    /// Decodes `%XX` escapes; `nil` for a malformed escape or bytes that are not UTF-8.
    static func decode(_ bytes: Substring.UTF8View.SubSequence) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard index < bytes.endIndex, let high = hexValue(bytes[index]) else { return nil }
            index = bytes.index(after: index)
            guard index < bytes.endIndex, let low = hexValue(bytes[index]) else { return nil }
            index = bytes.index(after: index)
            output.append(high << 4 | low)
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
