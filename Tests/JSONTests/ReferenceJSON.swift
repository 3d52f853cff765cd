import Foundation

/// A reference reading of a JSON document with the project's strict rules, written apart from
/// the engine (plain recursion over bytes, names compared as Swift strings), that the
/// differential tests check the engine against.
indirect enum ReferenceJSON: Equatable {
    case null
    case bool(Bool)
    /// A number, as its exact text.
    case number(String)
    case string(String)
    case array([ReferenceJSON])
    case object([(String, ReferenceJSON)])

    /// Why a document is refused: a rule of the contract, or plain malformed JSON.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Reads a whole document, or says which rule it breaks.
    static func parse(_ data: Data) throws(Refusal) -> ReferenceJSON {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw Refusal(description: "byte-order mark") }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw Refusal(description: "invalid UTF-8") }
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.position == bytes.count else { throw Refusal(description: "bytes after the value") }
        return value
    }

    /// The value at a coding path, if there is one.
    func value(at path: [any CodingKey]) -> ReferenceJSON? {
        var current = self
        for key in path {
            switch current {
            case .array(let elements):
                guard let index = key.intValue, elements.indices.contains(index) else { return nil }
                current = elements[index]
            case .object(let members):
                guard let member = members.first(where: { $0.0 == key.stringValue }) else { return nil }
                current = member.1
            default: return nil
            }
        }
        return current
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSpace() {
            while let byte = peek(), [0x20, 0x0A, 0x0D, 0x09].contains(byte) { position += 1 }
        }

        mutating func expect(_ text: String) throws(Refusal) {
            for byte in text.utf8 {
                guard peek() == byte else { throw Refusal(description: "malformed: expected \(text)") }
                position += 1
            }
        }

        mutating func value(depth: Int) throws(Refusal) -> ReferenceJSON {
            switch peek() {
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                guard depth < 256 else { throw Refusal(description: "nested too deeply") }
                position += 1
                skipSpace()
                var elements: [ReferenceJSON] = []
                if peek() == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    if peek() == UInt8(ascii: ",") {
                        position += 1
                        continue
                    }
                    try expect("]")
                    return .array(elements)
                }
            case UInt8(ascii: "{"):
                guard depth < 256 else { throw Refusal(description: "nested too deeply") }
                position += 1
                skipSpace()
                var members: [(String, ReferenceJSON)] = []
                if peek() == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard peek() == UInt8(ascii: "\"") else { throw Refusal(description: "malformed: expected a name") }
                    let name = try string()
                    // Equal as Swift strings (canonical equivalence) is equal, as a CodingKey sees it.
                    if members.contains(where: { $0.0 == name }) {
                        throw Refusal(description: "duplicate member \(name)")
                    }
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    members.append((name, try value(depth: depth + 1)))
                    skipSpace()
                    if peek() == UInt8(ascii: ",") {
                        position += 1
                        continue
                    }
                    try expect("}")
                    return .object(members)
                }
            default:
                return .number(try number())
            }
        }

        mutating func number() throws(Refusal) -> String {
            let start = position
            func digits(_ reader: inout Reader) -> Int {
                var count = 0
                while let byte = reader.peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    reader.position += 1
                    count += 1
                }
                return count
            }
            if peek() == UInt8(ascii: "-") { position += 1 }
            if peek() == UInt8(ascii: "0") {
                position += 1
            } else if digits(&self) == 0 {
                throw Refusal(description: "malformed number")
            }
            if peek() == UInt8(ascii: ".") {
                position += 1
                guard digits(&self) > 0 else { throw Refusal(description: "malformed number") }
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                position += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
                guard digits(&self) > 0 else { throw Refusal(description: "malformed number") }
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        mutating func string() throws(Refusal) -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
            while true {
                guard let byte = peek() else { throw Refusal(description: "malformed: unterminated string") }
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case 0..<0x20: throw Refusal(description: "malformed: control character")
                case UInt8(ascii: "\\"):
                    flush()
                    guard let escaped = peek() else { throw Refusal(description: "malformed escape") }
                    position += 1
                    switch escaped {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        let unit = try hex()
                        if (0xD800..<0xDC00).contains(unit) {
                            guard peek() == UInt8(ascii: "\\") else { throw Refusal(description: "lone surrogate") }
                            position += 1
                            guard peek() == UInt8(ascii: "u") else { throw Refusal(description: "lone surrogate") }
                            position += 1
                            let low = try hex()
                            guard (0xDC00..<0xE000).contains(low) else { throw Refusal(description: "lone surrogate") }
                            scalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                        } else {
                            guard let scalar = Unicode.Scalar(unit) else {
                                throw Refusal(description: "lone surrogate")
                            }
                            scalars.append(scalar)
                        }
                    default: throw Refusal(description: "malformed escape")
                    }
                default: raw.append(byte)
                }
            }
        }

        mutating func hex() throws(Refusal) -> UInt32 {
            guard position + 4 <= bytes.count,
                let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
                bytes[position..<position + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
            else { throw Refusal(description: "malformed \\u escape") }
            position += 4
            return value
        }
    }
}
