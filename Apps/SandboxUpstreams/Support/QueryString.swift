import HTTPServer
import HTTPTypes

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
            guard let name = PercentEncoding.decode(parts[0]) else {
                throw Problem(.invalidRequest, "the query holds a malformed percent-encoding")
            }
            guard let value = parts.count > 1 ? PercentEncoding.decode(parts[1]) : "" else {
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
}
