/// The `Encoder` handed to each nested composite value ``StreamingJSONEncoder`` encodes (the
/// top-level value gets the ``JSONStreamWriter`` itself).
///
/// One instance per composite value at a time; asking it twice for a container returns the
/// same one, as Foundation's encoder does. Once its value is encoded and no one else holds it,
/// the writer reuses it for the next value, after ``reset()``.
final class JSONStreamEncoder: Encoder {
    let writer: JSONStreamWriter
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    // Used only by the one encoding call that owns the writer, never concurrently.
    @exclusivity(unchecked) private var containerID: Int?

    init(writer: JSONStreamWriter) {
        self.writer = writer
    }

    /// Forgets the container of the previous value.
    func reset() {
        containerID = nil
    }

    private func containerID(_ open: () -> Int) -> Int {
        if let containerID { return containerID }
        let id = open()
        containerID = id
        return id
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(writer: writer, id: containerID(writer.openObject)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(writer: writer, id: containerID(writer.openArray))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(writer: writer)
    }

    // MARK: Keyed

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let writer: JSONStreamWriter
        let id: Int
        var codingPath: [any CodingKey] { [] }

        private func begin(_ key: Key) throws {
            try writer.beginElement(in: id, key: key.stringValue)
        }

        mutating func encodeNil(forKey key: Key) throws {
            try begin(key)
            writer.writeNull()
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            try begin(key)
            writer.writeBool(value)
        }
        mutating func encode(_ value: String, forKey key: Key) throws {
            try begin(key)
            writer.writeString(value)
        }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            try begin(key)
            try writer.writeDouble(value)
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            try begin(key)
            try writer.writeFloat(value)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
        }
        mutating func encode(_ value: Int8, forKey key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
        }
        mutating func encode(_ value: Int16, forKey key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
        }
        mutating func encode(_ value: Int32, forKey key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
        }
        mutating func encode(_ value: Int64, forKey key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
        }
        mutating func encode(_ value: UInt, forKey key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
        }
        mutating func encode(_ value: UInt8, forKey key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
        }
        mutating func encode(_ value: UInt16, forKey key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
        }
        mutating func encode(_ value: UInt32, forKey key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
        }
        mutating func encode(_ value: UInt64, forKey key: Key) throws {
            try begin(key)
            writer.writeInteger(value)
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try begin(key)
            try writer.encodeValue(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            // The protocol does not let this throw: an out-of-order use is caught at the next write.
            guard (try? begin(key)) != nil else {
                return KeyedEncodingContainer(KeyedContainer<NestedKey>(writer: writer, id: -1))
            }
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(writer: writer, id: writer.openObject()))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            guard (try? begin(key)) != nil else { return UnkeyedContainer(writer: writer, id: -1) }
            return UnkeyedContainer(writer: writer, id: writer.openArray())
        }

        mutating func superEncoder() -> any Encoder { writer.unsupported() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { writer.unsupported() }
    }

    // MARK: Unkeyed

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let writer: JSONStreamWriter
        let id: Int
        var codingPath: [any CodingKey] { [] }
        var count: Int { writer.count(of: id) }

        private func begin() throws {
            try writer.beginElement(in: id, key: nil)
        }

        mutating func encodeNil() throws {
            try begin()
            writer.writeNull()
        }
        mutating func encode(_ value: Bool) throws {
            try begin()
            writer.writeBool(value)
        }
        mutating func encode(_ value: String) throws {
            try begin()
            writer.writeString(value)
        }
        mutating func encode(_ value: Double) throws {
            try begin()
            try writer.writeDouble(value)
        }
        mutating func encode(_ value: Float) throws {
            try begin()
            try writer.writeFloat(value)
        }
        mutating func encode(_ value: Int) throws {
            try begin()
            writer.writeInteger(value)
        }
        mutating func encode(_ value: Int64) throws {
            try begin()
            writer.writeInteger(value)
        }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try begin()
            try writer.encodeValue(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            guard (try? begin()) != nil else {
                return KeyedEncodingContainer(KeyedContainer<NestedKey>(writer: writer, id: -1))
            }
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(writer: writer, id: writer.openObject()))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            guard (try? begin()) != nil else { return UnkeyedContainer(writer: writer, id: -1) }
            return UnkeyedContainer(writer: writer, id: writer.openArray())
        }

        mutating func superEncoder() -> any Encoder { writer.unsupported() }
    }

    // MARK: Single value

    struct SingleValueContainer: SingleValueEncodingContainer {
        let writer: JSONStreamWriter
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws {
            try writer.beginTopLevelValue()
            writer.writeNull()
        }
        mutating func encode(_ value: Bool) throws {
            try writer.beginTopLevelValue()
            writer.writeBool(value)
        }
        mutating func encode(_ value: String) throws {
            try writer.beginTopLevelValue()
            writer.writeString(value)
        }
        mutating func encode(_ value: Double) throws {
            try writer.beginTopLevelValue()
            try writer.writeDouble(value)
        }
        mutating func encode(_ value: Float) throws {
            try writer.beginTopLevelValue()
            try writer.writeFloat(value)
        }
        mutating func encode(_ value: Int) throws {
            try writer.beginTopLevelValue()
            writer.writeInteger(value)
        }
        mutating func encode(_ value: Int64) throws {
            try writer.beginTopLevelValue()
            writer.writeInteger(value)
        }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try writer.beginTopLevelValue()
            try writer.encodeValue(value)
        }
    }
}
