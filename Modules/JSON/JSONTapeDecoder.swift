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
        guard tape[index].kind == .object else { throw tape.failure("expected an object") }
        return KeyedDecodingContainer(JSONTapeKeyedContainer<Key>(tape: tape, object: index, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard tape[index].kind == .array else { throw tape.failure("expected an array") }
        return JSONTapeUnkeyedContainer(tape: tape, array: index, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONTapeSingleValueContainer(tape: tape, index: index, codingPath: codingPath)
    }

    /// Decodes `type` from the value at `index`, with `codingPath` as the value's path.
    ///
    /// The types Foundation's `JSONDecoder` reads in its own way (`Date`, `Data`, `URL`,
    /// `Decimal`) and the 128-bit integers fail, so the caller falls back to Foundation; common
    /// scalars are read without a nested decoder.
    @inline(__always)
    static func decode<T: Decodable>(
        _ type: T.Type,
        tape: JSONTape,
        index: Int,
        codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        if T.self == String.self { return try tape.string(at: index) as! T }
        if T.self == Int.self { return try tape.integer(at: index, as: Int.self) as! T }
        if T.self == Double.self { return try tape.double(at: index) as! T }
        if T.self == Bool.self { return try tape.bool(at: index) as! T }
        if T.self == Int64.self { return try tape.integer(at: index, as: Int64.self) as! T }
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self
            || T.self == Int128.self || T.self == UInt128.self
        {
            throw tape.failure("a type Foundation decodes in its own way")
        }
        return try T(from: JSONTapeDecoder(tape: tape, index: index, codingPath: codingPath()))
    }
}
