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

    /// The entry of the next element, then moves past it.
    @inline(__always)
    private mutating func advance() throws(StreamingJSONDecoder.Failure) -> Int {
        guard !isAtEnd else { throw tape.failure("no more elements") }
        let element = position
        position = tape.next(after: position)
        currentIndex += 1
        return element
    }

    /// The entry of the next element, without moving past it.
    @inline(__always)
    private func current() throws(StreamingJSONDecoder.Failure) -> Int {
        guard !isAtEnd else { throw tape.failure("no more elements") }
        return position
    }

    /// Moves past the element ``current()`` returned.
    @inline(__always)
    private mutating func moveOn() {
        position = tape.next(after: position)
        currentIndex += 1
    }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws(StreamingJSONDecoder.Failure) -> T {
        try next { tape, index throws(StreamingJSONDecoder.Failure) in try tape.integer(at: index, as: type) }
    }

    /// Reads the current element with `read` (given the tape and the element's entry), then
    /// moves past it.
    private mutating func next<T>(
        _ read: (JSONTape, Int) throws(StreamingJSONDecoder.Failure) -> T
    ) throws(StreamingJSONDecoder.Failure) -> T {
        let value = try read(tape, current())
        moveOn()
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw tape.failure("no more elements") }
        guard tape.isNull(at: position) else { return false }
        position += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try next { tape, index throws(StreamingJSONDecoder.Failure) in try tape.bool(at: index) }
    }
    mutating func decode(_ type: String.Type) throws -> String {
        try next { tape, index throws(StreamingJSONDecoder.Failure) in try tape.string(at: index) }
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        try next { tape, index throws(StreamingJSONDecoder.Failure) in try tape.double(at: index) }
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        try next { tape, index throws(StreamingJSONDecoder.Failure) in try tape.float(at: index) }
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

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else { throw tape.failure("no more elements") }
        let value = try JSONTapeDecoder.decode(type, tape: tape, index: position, codingPath: elementPath)
        position = tape.next(after: position)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let path = elementPath
        let element = try advance()
        guard tape[element].kind == .object else { throw tape.failure("expected an object") }
        return KeyedDecodingContainer(JSONTapeKeyedContainer<NestedKey>(tape: tape, object: element, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = elementPath
        let element = try advance()
        guard tape[element].kind == .array else { throw tape.failure("expected an array") }
        return JSONTapeUnkeyedContainer(tape: tape, array: element, codingPath: path)
    }

    mutating func superDecoder() throws -> any Decoder {
        throw tape.failure("superDecoder is left to Foundation")
    }
}
