import Foundation

/// The `Decoder` of one value of a ``JSONTape``, handed to each `Decodable` that
/// ``StreamingJSONDecoder`` decodes.
///
/// A small struct (tape, entry index, coding path), so passing it as `any Decoder` needs no
/// allocation.
struct JSONTapeDecoder: Decoder {
    let tape: JSONTape
    let index: Int
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { tape.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard tape[index].kind == .object else { throw tape.mismatch([String: Any].self, at: index, codingPath) }
        return KeyedDecodingContainer(JSONTapeKeyedContainer<Key>(tape: tape, object: index, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard tape[index].kind == .array else { throw tape.mismatch([Any].self, at: index, codingPath) }
        return JSONTapeUnkeyedContainer(tape: tape, array: index, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONTapeSingleValueContainer(tape: tape, index: index, codingPath: codingPath)
    }

    /// Decodes `type` from the value at `index`, with `codingPath` as the value's path.
    ///
    /// The types with a JSON form of their own (`Date`, `Data`, `URL`, `Decimal`, the 128-bit
    /// integers) and the common scalars are read without a nested decoder.
    @inline(__always)
    static func decode<T: Decodable>(
        _ type: T.Type,
        tape: JSONTape,
        index: Int,
        codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        if T.self == String.self { return try tape.string(at: index, codingPath()) as! T }
        if T.self == Int.self { return try tape.integer(at: index, as: Int.self, codingPath()) as! T }
        if T.self == Double.self { return try tape.double(at: index, codingPath()) as! T }
        if T.self == Bool.self { return try tape.bool(at: index, codingPath()) as! T }
        if T.self == Int64.self { return try tape.integer(at: index, as: Int64.self, codingPath()) as! T }
        if T.self == Date.self { return try tape.date(at: index, codingPath()) as! T }
        if T.self == Data.self { return try tape.data(at: index, codingPath()) as! T }
        if T.self == URL.self { return try tape.url(at: index, codingPath()) as! T }
        if T.self == Decimal.self { return try tape.decimal(at: index, codingPath()) as! T }
        if T.self == Int128.self { return try tape.wideInteger(at: index, as: Int128.self, codingPath()) as! T }
        if T.self == UInt128.self { return try tape.wideInteger(at: index, as: UInt128.self, codingPath()) as! T }
        return try T(from: JSONTapeDecoder(tape: tape, index: index, codingPath: codingPath()))
    }
}
