/// Ordered RFC 8941 parameters (`;key=value`), each key at most once.
public struct SFParameters: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One parameter.
    public struct Parameter: Hashable, Sendable {
        /// The key (lowercase letters, digits, `_`, `-`, `.`, `*`).
        public var key: String
        /// The value; `true` is written as the bare key.
        public var value: SFBareItem

        /// Creates a parameter.
        public init(key: String, value: SFBareItem) {
            self.key = key
            self.value = value
        }
    }

    /// The parameters, in order.
    public private(set) var elements: [Parameter]

    /// Creates empty parameters.
    public init() { elements = [] }

    /// Creates parameters from a literal, in source order.
    public init(dictionaryLiteral elements: (String, SFBareItem)...) {
        self.elements = []
        for (key, value) in elements { self[key] = value }
    }

    /// The number of parameters.
    public var count: Int { elements.count }

    /// Whether there are none.
    public var isEmpty: Bool { elements.isEmpty }

    /// Iterates the parameters in order.
    public func makeIterator() -> IndexingIterator<[Parameter]> { elements.makeIterator() }

    /// Sets a value, replacing one with the same key in place or appending; returns whether it
    /// was appended.
    @discardableResult
    mutating func set(_ key: String, _ value: SFBareItem) -> Bool {
        for index in elements.indices where elements[index].key == key {
            elements[index].value = value
            return false
        }
        elements.append(Parameter(key: key, value: value))
        return true
    }

    /// The value for `key`; setting replaces the value in place or appends, `nil` removes.
    public subscript(key: String) -> SFBareItem? {
        get { elements.first { $0.key == key }?.value }
        set {
            if let index = elements.firstIndex(where: { $0.key == key }) {
                if let newValue { elements[index].value = newValue } else { elements.remove(at: index) }
            } else if let newValue {
                elements.append(Parameter(key: key, value: newValue))
            }
        }
    }
}
