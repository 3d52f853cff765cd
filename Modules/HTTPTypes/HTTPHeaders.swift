/// An ordered list of header fields with case-insensitive lookup.
///
/// Order and repeated names are kept exactly as added, so what a middleware signs is what the
/// transport sends.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Equatable {
        /// The field name as given.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// Creates an empty list.
    public init() { fields = [] }

    /// Creates a list from fields, in order.
    public init(_ fields: [Field]) { self.fields = fields }

    /// Creates a list from `(name, value)` pairs, in order.
    public init(_ pairs: [(String, String)]) { fields = pairs.map { Field(name: $0.0, value: $0.1) } }

    /// Creates a list from a literal, in source order.
    ///
    /// A literal with fields is mostly a message's first ones: the list keeps room for two more,
    /// so the fields added on the way out (a request id, a challenge) do not reallocate it. An
    /// empty literal allocates nothing.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = []
        guard !elements.isEmpty else { return }
        fields.reserveCapacity(elements.count + 2)
        for (name, value) in elements { fields.append(Field(name: name, value: value)) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value for `name` (case-insensitive), or `nil`; setting replaces every field
    /// of that name with one (or removes them all for `nil`).
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value }
        set {
            if let newValue { replaceOrAdd(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// Every value for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    /// Whether a field named `name` (case-insensitive) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Makes room for `count` fields in all, so that adding up to that many allocates no more.
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// The fields a parser makes room for at a message's first: most requests and answers have
    /// fewer, so their list is allocated once rather than grown three or four times.
    package static let typicalFieldCount = 8

    /// Replaces every field named `name` with one field, at the position of the first, or
    /// appends it.
    public mutating func replaceOrAdd(name: String, value: String) {
        Self.replaceOrAdd(Field(name: name, value: value), in: &fields)
    }

    /// ``replaceOrAdd(name:value:)`` on a list of fields being built.
    package static func replaceOrAdd(_ field: Field, in fields: inout [Field]) {
        let name = field.name
        guard let first = fields.firstIndex(where: { $0.name.equalsIgnoringASCIICase(name) }) else {
            fields.append(field)
            return
        }
        fields[first] = field
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if fields[index].name.equalsIgnoringASCIICase(name) { fields.remove(at: index) } else { index += 1 }
        }
    }

    /// Removes every field named `name` (case-insensitive).
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Adds every field of `other` after these.
    public mutating func append(contentsOf other: HTTPHeaders) {
        fields.append(contentsOf: other.fields)
    }

    /// A copy in which the values of the named fields (case-insensitive) read `[REDACTED]`.
    public func redacting(_ names: Set<String>) -> HTTPHeaders {
        let lowered = Set(names.map { $0.lowercased() })
        return HTTPHeaders(
            fields.map { lowered.contains($0.name.lowercased()) ? Field(name: $0.name, value: "[REDACTED]") : $0 }
        )
    }

    /// The header names redacted in logs by default: credentials and signatures.
    public static let sensitiveNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "signature", "signature-input",
    ]
}

extension String {
    /// Compares ASCII case-insensitively without allocating (header names are ASCII tokens).
    package func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // Native and small strings hand over their UTF-8 in place.
        var lhs = self
        var rhs = other
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                ASCIICaseInsensitive.equal(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right))
            }
        }
    }
}
