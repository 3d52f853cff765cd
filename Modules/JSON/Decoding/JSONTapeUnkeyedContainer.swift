import Foundation

/// The unkeyed container of a JSON array on a ``JSONTape``.
struct JSONTapeUnkeyedContainer: UnkeyedDecodingContainer {
    /// An element's position in the coding path.
    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    let tape: JSONTape
    let codingPath: [any CodingKey]
    let count: Int?
    private(set) var currentIndex = 0
    /// The entry of the next element.
    private var position: Int

    init(tape: JSONTape, array: Int, codingPath: [any CodingKey]) {
        self.tape = tape
        self.codingPath = codingPath
        count = Int(tape[array].count)
        position = array + 1
    }

    var isAtEnd: Bool { currentIndex >= count.unsafelyUnwrapped }

    private var elementPath: [any CodingKey] { codingPath + [IndexKey(intValue: currentIndex)] }

    /// The error for reading past the last element.
    private func atEnd(_ type: Any.Type) -> DecodingError {
        .valueNotFound(type, .init(codingPath: elementPath, debugDescription: "the array has no more elements"))
    }

    /// The entry of the next element, then moves past it.
    @inline(__always)
    private mutating func advance(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else { throw atEnd(type) }
        let element = position
        position = tape.next(after: position)
        currentIndex += 1
        return element
    }

    /// The entry of the next element, without moving past it.
    @inline(__always)
    private func current(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else { throw atEnd(type) }
        return position
    }

    /// Moves past the element ``current()`` returned.
    @inline(__always)
    private mutating func moveOn() {
        position = tape.next(after: position)
        currentIndex += 1
    }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try next(type) { tape, index, path in try tape.integer(at: index, as: type, path) }
    }

    /// Reads the current element with `read` (given the tape and the element's entry), then
    /// moves past it.
    private mutating func next<T>(
        _ type: T.Type,
        _ read: (JSONTape, Int, [any CodingKey]) throws -> T
    ) throws -> T {
        let value = try read(tape, current(type), elementPath)
        moveOn()
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw atEnd(Never?.self) }
        guard tape.isNull(at: position) else { return false }
        position += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try next(Bool.self) { tape, index, path in try tape.bool(at: index, path) }
    }
    mutating func decode(_ type: String.Type) throws -> String {
        try next(String.self) { tape, index, path in try tape.string(at: index, path) }
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        try next(Double.self) { tape, index, path in try tape.double(at: index, path) }
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        try next(Float.self) { tape, index, path in try tape.float(at: index, path) }
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    mutating func decode(_ type: Int128.Type) throws -> Int128 {
        try next(type) { tape, index, path in try tape.wideInteger(at: index, as: type, path) }
    }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
        try next(type) { tape, index, path in try tape.wideInteger(at: index, as: type, path) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else { throw atEnd(type) }
        let value = try JSONTapeDecoder.decode(type, tape: tape, index: position, codingPath: elementPath)
        position = tape.next(after: position)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let path = elementPath
        let element = try advance([String: Any].self)
        guard tape[element].kind == .object else { throw tape.mismatch([String: Any].self, at: element, path) }
        return KeyedDecodingContainer(JSONTapeKeyedContainer<NestedKey>(tape: tape, object: element, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = elementPath
        let element = try advance([Any].self)
        guard tape[element].kind == .array else { throw tape.mismatch([Any].self, at: element, path) }
        return JSONTapeUnkeyedContainer(tape: tape, array: element, codingPath: path)
    }

    /// The decoder of the next element.
    mutating func superDecoder() throws -> any Decoder {
        let path = elementPath
        return JSONTapeDecoder(tape: tape, index: try advance((any Decoder).self), codingPath: path)
    }
}
