/// An RFC 8941 dictionary: ordered `key=member` pairs, each key at most once.
///
/// `Signature-Input`, `Signature` and `Content-Digest` are dictionaries.
public struct SFDictionary: Hashable, Sendable, Sequence {
    /// One member.
    public struct Entry: Hashable, Sendable {
        /// The key.
        public var key: String
        /// The member.
        public var member: SFMember

        /// Creates an entry.
        public init(key: String, member: SFMember) {
            self.key = key
            self.member = member
        }
    }

    /// The members, in order.
    public private(set) var entries: [Entry]

    /// Creates an empty dictionary.
    public init() { entries = [] }

    /// Creates a dictionary from entries; a repeated key keeps its first position and last value.
    public init(_ entries: [Entry]) {
        self.entries = []
        for entry in entries { self[entry.key] = entry.member }
    }

    /// The number of members.
    public var count: Int { entries.count }

    /// Whether there are none.
    public var isEmpty: Bool { entries.isEmpty }

    /// The keys, in order.
    public var keys: [String] { entries.map(\.key) }

    /// Iterates the members in order.
    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// Sets a member, replacing one with the same key in place or appending; returns whether it
    /// was appended.
    @discardableResult
    mutating func set(_ key: String, _ member: SFMember) -> Bool {
        for index in entries.indices where entries[index].key == key {
            entries[index].member = member
            return false
        }
        entries.append(Entry(key: key, member: member))
        return true
    }

    /// The member for `key`; setting replaces it in place or appends, `nil` removes.
    public subscript(key: String) -> SFMember? {
        get { entries.first { $0.key == key }?.member }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].member = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: key, member: newValue))
            }
        }
    }
}
