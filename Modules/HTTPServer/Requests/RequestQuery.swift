import HTTPTypes

/// A request's query split into `name=value` pairs and percent-decoded (RFC 3986 §2.1): `%HH`
/// escapes are decoded and `+` is taken literally, so opaque values such as base64 cursors
/// arrive as sent.
///
/// ```swift
/// let query = try RequestQuery(request.query)
/// let limit = try query.single("limit")
/// ```
public struct RequestQuery: Sendable {
    /// Why a query could not be read; its `description` names the parameter, never its value.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The parameter concerned, when its name could be read.
        public let parameter: String?
        /// What is wrong, for a person.
        public let description: String
    }

    /// The pairs in the order they were given.
    public let pairs: [(name: String, value: String)]

    /// Splits and decodes a raw query (without `?`); `nil` is the empty query.
    /// - Throws: ``Failure`` for a malformed escape or text that is not UTF-8.
    public init(_ raw: String?) throws(Failure) {
        var pairs: [(name: String, value: String)] = []
        for piece in (raw ?? "").utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = piece.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.decode(parts[0]) else {
                throw Failure(parameter: nil, description: "the query holds a malformed percent-encoding")
            }
            guard let value = parts.count > 1 ? PercentEncoding.decode(parts[1]) : "" else {
                throw Failure(
                    parameter: name,
                    description: "the query parameter \"\(name)\" holds a malformed percent-encoding"
                )
            }
            pairs.append((name, value))
        }
        self.pairs = pairs
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        pairs.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The only value of `name`, `nil` when absent.
    /// - Throws: ``Failure`` when the parameter is given more than once.
    public func single(_ name: String) throws(Failure) -> String? {
        let values = values(name)
        guard values.count <= 1 else {
            throw Failure(
                parameter: name, description: "the query parameter \"\(name)\" is given \(values.count) times")
        }
        return values.first
    }
}
