import Foundation

/// The keyed container of a JSON object on a ``JSONTape``.
///
/// Members are found by comparing each key's bytes with the `CodingKey`'s UTF-8, starting
/// after the member found last, so a value decoding its members in document order finds each
/// at once.
struct JSONTapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let tape: JSONTape
    let object: Int
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        let entry = tape[object]
        var keys: [Key] = []
        keys.reserveCapacity(Int(entry.count))
        var index = object + 1
        while index < Int(entry.end) {
            if let key = Key(stringValue: tape.keyString(at: index)) { keys.append(key) }
            index = tape.next(after: index + 1)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        valueIndex(key) != nil
    }

    @inline(__always)
    private func valueIndex(_ key: Key) -> Int? {
        tape.valueIndex(forKey: key.stringValue, inObject: object, depth: codingPath.count)
    }

    @inline(__always)
    private func require(_ key: Key) throws -> Int {
        guard let index = valueIndex(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return index
    }

    private func path(_ key: Key) -> [any CodingKey] {
        codingPath + [key]
    }

    func decodeNil(forKey key: Key) throws -> Bool { tape.isNull(at: try require(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try tape.bool(at: require(key), path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try tape.string(at: require(key), path(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try tape.double(at: require(key), path(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try tape.float(at: require(key), path(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        try tape.wideInteger(at: require(key), as: type, path(key))
    }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try tape.wideInteger(at: require(key), as: type, path(key))
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try tape.integer(at: require(key), as: T.self, path(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONTapeDecoder.decode(type, tape: tape, index: require(key), codingPath: path(key))
    }

    // MARK: If present

    /// The value's entry, or `nil` when the member is absent or `null`: one search instead of
    /// the three of the protocol's default (`contains`, `decodeNil`, `decode`).
    @inline(__always)
    private func presentIndex(_ key: Key) -> Int? {
        guard let index = valueIndex(key), !tape.isNull(at: index) else { return nil }
        return index
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentIndex(key).map { index in try tape.bool(at: index, path(key)) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentIndex(key).map { index in try tape.string(at: index, path(key)) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentIndex(key).map { index in try tape.double(at: index, path(key)) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try presentIndex(key).map { index in try tape.float(at: index, path(key)) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try integerIfPresent(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try integerIfPresent(key) }

    private func integerIfPresent<T: FixedWidthInteger>(_ key: Key) throws -> T? {
        guard let index = presentIndex(key) else { return nil }
        return try tape.integer(at: index, as: T.self, path(key))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = presentIndex(key) else { return nil }
        return try JSONTapeDecoder.decode(type, tape: tape, index: index, codingPath: path(key))
    }

    // MARK: Nested

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try require(key)
        guard tape[index].kind == .object else { throw tape.mismatch([String: Any].self, at: index, path(key)) }
        return KeyedDecodingContainer(
            JSONTapeKeyedContainer<NestedKey>(tape: tape, object: index, codingPath: path(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try require(key)
        guard tape[index].kind == .array else { throw tape.mismatch([Any].self, at: index, path(key)) }
        return JSONTapeUnkeyedContainer(tape: tape, array: index, codingPath: path(key))
    }

    /// The decoder of the member `super`, or of `null` when there is none.
    func superDecoder() throws -> any Decoder {
        let key = SuperKey()
        return JSONTapeDecoder(
            tape: tape,
            index: tape.valueIndex(forKey: key.stringValue, inObject: object, depth: codingPath.count)
                ?? tape.nullIndex,
            codingPath: codingPath + [key])
    }

    /// The decoder of the member `key`, or of `null` when there is none.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONTapeDecoder(tape: tape, index: valueIndex(key) ?? tape.nullIndex, codingPath: path(key))
    }

    /// The key `superDecoder()` reads, as in Foundation's coders.
    private struct SuperKey: CodingKey {
        var stringValue: String { "super" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }
}
