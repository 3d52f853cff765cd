import HTTPTypes

/// An ordered list of named query or form values.
///
/// Build it from a literal; a `nil` value leaves its name out, so optional parameters need no
/// `if`:
///
/// ```swift
/// .query(["cursor": cursor.map(QueryValue.string), "limit": .int(limit), "tags": ["a", "b"]])
/// ```
public struct QueryParameters: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One named value.
    public struct Item: Sendable, Hashable {
        /// The name, unencoded.
        public var name: String
        /// The value.
        public var value: QueryValue

        /// Creates an item.
        public init(name: String, value: QueryValue) {
            self.name = name
            self.value = value
        }
    }

    /// The items, in order.
    public var items: [Item]
    /// How the items become text.
    public var encoding: QueryEncoding

    /// Creates parameters from items.
    public init(_ items: [Item] = [], encoding: QueryEncoding = .default) {
        self.items = items
        self.encoding = encoding
    }

    /// Creates parameters from a literal, in source order, leaving out `nil` values.
    public init(dictionaryLiteral elements: (String, QueryValue?)...) {
        self.items = elements.compactMap { name, value in value.map { Item(name: name, value: $0) } }
        self.encoding = .default
    }

    /// Whether there are no items.
    public var isEmpty: Bool { items.isEmpty }

    /// The `(name, text)` pairs after applying the array and boolean rules, unencoded.
    public var pairs: [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        result.reserveCapacity(items.count)
        for item in items {
            append(item.value, named: item.name, to: &result)
        }
        return result
    }

    private func append(_ value: QueryValue, named name: String, to result: inout [(name: String, value: String)]) {
        guard case .array(let values) = value else {
            result.append((name, value.text(bools: encoding.bools) ?? ""))
            return
        }
        switch encoding.arrays {
        case .repeatedKey:
            for element in values { append(element, named: name, to: &result) }
        case .brackets:
            for element in values { append(element, named: name + "[]", to: &result) }
        case .commaSeparated:
            guard !values.isEmpty else { return }
            let texts = values.map { $0.text(bools: encoding.bools) ?? "" }
            result.append((name, texts.joined(separator: ",")))
        }
    }

    /// The RFC 3986 query string (without `?`): names and values percent-encoded, space as `%20`.
    public var percentEncodedQuery: String {
        var bytes: [UInt8] = []
        appendPercentEncodedQuery(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``percentEncodedQuery`` to a byte buffer: the encoded ``pairs``, written without
    /// making them.
    package func appendPercentEncodedQuery(to bytes: inout [UInt8]) {
        var first = true
        for item in items {
            appendEncoded(item.value, named: item.name, brackets: 0, first: &first, to: &bytes)
        }
    }

    /// Appends the pairs one item gives, as ``append(_:named:to:)`` makes them; `brackets` counts
    /// the `[]` that ``QueryEncoding/ArrayEncoding/brackets`` added to the name.
    private func appendEncoded(
        _ value: QueryValue,
        named name: String,
        brackets: Int,
        first: inout Bool,
        to bytes: inout [UInt8]
    ) {
        guard case .array(let values) = value else {
            appendName(name, brackets: brackets, first: &first, to: &bytes)
            Self.appendEncodedText(of: value, bools: encoding.bools, to: &bytes)
            return
        }
        switch encoding.arrays {
        case .repeatedKey:
            for element in values {
                appendEncoded(element, named: name, brackets: brackets, first: &first, to: &bytes)
            }
        case .brackets:
            for element in values {
                appendEncoded(element, named: name, brackets: brackets + 1, first: &first, to: &bytes)
            }
        case .commaSeparated:
            guard !values.isEmpty else { return }
            appendName(name, brackets: brackets, first: &first, to: &bytes)
            for (index, element) in values.enumerated() {
                // The joining `,` is encoded like the rest of the value.
                if index > 0 { bytes.append(contentsOf: "%2C".utf8) }
                Self.appendEncodedText(of: element, bools: encoding.bools, to: &bytes)
            }
        }
    }

    /// `&` unless first, the encoded name, its encoded `[]`s, and `=`.
    private func appendName(_ name: String, brackets: Int, first: inout Bool, to bytes: inout [UInt8]) {
        if !first { bytes.append(UInt8(ascii: "&")) }
        first = false
        PercentEncoding.appendQueryComponent(name, to: &bytes)
        for _ in 0..<brackets { bytes.append(contentsOf: "%5B%5D".utf8) }
        bytes.append(UInt8(ascii: "="))
    }

    /// A scalar's text encoded (an array's is empty, as in ``pairs``).
    private static func appendEncodedText(
        of value: QueryValue, bools: QueryEncoding.BoolEncoding, to bytes: inout [UInt8]
    ) {
        switch value {
        case .string(let text): PercentEncoding.appendQueryComponent(text, to: &bytes)
        case .bool, .int: bytes.append(contentsOf: (value.text(bools: bools) ?? "").utf8)
        case .double(let number): PercentEncoding.appendQueryComponent(number.description, to: &bytes)
        case .array: break
        }
    }

    /// The `application/x-www-form-urlencoded` body text: space as `+`.
    public var formEncoded: String {
        pairs.map { PercentEncoding.formComponent($0.name) + "=" + PercentEncoding.formComponent($0.value) }
            .joined(separator: "&")
    }
}
