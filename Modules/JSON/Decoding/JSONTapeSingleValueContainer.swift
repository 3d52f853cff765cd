import Foundation

/// The single-value container of a ``JSONTapeDecoder``.
struct JSONTapeSingleValueContainer: SingleValueDecodingContainer {
    let tape: JSONTape
    let index: Int
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { tape.isNull(at: index) }
    func decode(_ type: Bool.Type) throws -> Bool { try tape.bool(at: index, codingPath) }
    func decode(_ type: String.Type) throws -> String { try tape.string(at: index, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try tape.double(at: index, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try tape.float(at: index, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try tape.integer(at: index, as: type, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try tape.integer(at: index, as: type, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try tape.integer(at: index, as: type, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try tape.integer(at: index, as: type, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try tape.integer(at: index, as: type, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try tape.integer(at: index, as: type, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try tape.integer(at: index, as: type, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try tape.integer(at: index, as: type, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try tape.integer(at: index, as: type, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try tape.integer(at: index, as: type, codingPath) }
    func decode(_ type: Int128.Type) throws -> Int128 { try tape.wideInteger(at: index, as: type, codingPath) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try tape.wideInteger(at: index, as: type, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONTapeDecoder.decode(type, tape: tape, index: index, codingPath: codingPath)
    }
}
