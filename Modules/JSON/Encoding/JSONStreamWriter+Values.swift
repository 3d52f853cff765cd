import Foundation

extension JSONStreamWriter {
    /// Writes any value: the common scalars and arrays of them directly, anything else through
    /// its `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        // Metadata comparisons first: far cheaper than dynamic casts for the common types.
        if T.self == String.self {
            writeString(value as! String)
        } else if T.self == Int.self {
            writeInteger(value as! Int)
        } else if T.self == Int64.self {
            writeInteger(value as! Int64)
        } else if T.self == Bool.self {
            writeBool(value as! Bool)
        } else if T.self == Double.self {
            try writeDouble(value as! Double)
        } else if T.self == Date.self {
            try writeDate(value as! Date)
        } else if T.self == Data.self {
            writeString((value as! Data).base64EncodedString())
        } else if T.self == URL.self {
            writeString((value as! URL).absoluteString)
        } else if T.self == Decimal.self {
            appendUTF8((value as! Decimal).description)
        } else if T.self == Float.self {
            try writeFloat(value as! Float)
        } else if T.self == [String].self {
            writeArray(value as! [String]) { writeString($0) }
        } else if T.self == [Int].self {
            writeArray(value as! [Int]) { writeInteger($0) }
        } else if T.self == [Int64].self {
            writeArray(value as! [Int64]) { writeInteger($0) }
        } else if T.self == [Double].self {
            try writeArray(value as! [Double]) { try writeDouble($0) }
        } else if T.self == [Bool].self {
            writeArray(value as! [Bool]) { writeBool($0) }
        } else {
            try encodeComposite(value)
        }
    }

    /// Writes an array of scalars as `Array.encode(to:)` would through an unkeyed container,
    /// without one: the array is complete when its last element is written.
    private func writeArray<Element>(_ elements: [Element], _ write: (Element) throws -> Void) rethrows {
        append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { append(UInt8(ascii: ",")) }
            first = false
            try write(element)
        }
        append(UInt8(ascii: "]"))
    }

    func writeNull() {
        let out = reserve(4)
        out[0] = UInt8(ascii: "n")
        out[1] = UInt8(ascii: "u")
        out[2] = UInt8(ascii: "l")
        out[3] = UInt8(ascii: "l")
        advance(4)
    }

    func writeBool(_ value: Bool) {
        let out = reserve(5)
        if value {
            out[0] = UInt8(ascii: "t")
            out[1] = UInt8(ascii: "r")
            out[2] = UInt8(ascii: "u")
            out[3] = UInt8(ascii: "e")
            advance(4)
        } else {
            out[0] = UInt8(ascii: "f")
            out[1] = UInt8(ascii: "a")
            out[2] = UInt8(ascii: "l")
            out[3] = UInt8(ascii: "s")
            out[4] = UInt8(ascii: "e")
            advance(5)
        }
    }

    /// Writes an integer's decimal digits straight into the buffer, without making a `String`.
    func writeInteger<I: BinaryInteger>(_ value: I) {
        if let small = Int64(exactly: value) {
            writeInt64(small)
        } else {
            appendUTF8(String(value))
        }
    }

    private func writeInt64(_ value: Int64) {
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let sign = value < 0 ? 1 : 0
        let out = reserve(sign + digits)
        if sign == 1 { out[0] = UInt8(ascii: "-") }
        var index = sign + digits
        repeat {
            index -= 1
            out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        advance(sign + digits)
    }

    func writeDouble(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "\(value) is not representable in JSON")
            )
        }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            writeInt64(Int64(value))
        } else {
            appendUTF8(value.description)
        }
    }

    func writeFloat(_ value: Float) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "\(value) is not representable in JSON")
            )
        }
        appendUTF8(value.description)
    }

    private func writeDate(_ date: Date) throws {
        switch dateEncoding {
        case .deferredToDate: try writeDouble(date.timeIntervalSinceReferenceDate)
        case .secondsSince1970: try writeDouble(date.timeIntervalSince1970)
        case .millisecondsSince1970: try writeDouble((date.timeIntervalSince1970 * 1000).rounded())
        case .iso8601: writeString(date.formatted(.iso8601))
        }
    }

    // MARK: Strings

    /// Writes a JSON string: quotes, and escapes for control characters, `"` and `\\`.
    func writeString(_ string: String) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { writeQuoted($0) }
        if done == nil {
            var copy = string
            copy.withUTF8 { writeQuoted($0) }
        }
    }

    /// Writes what precedes an object member's value: a `,` after the first member, the quoted
    /// key and `:`, with one reservation when the key needs no escapes (the common case).
    func writeMemberPrefix(_ key: String, comma: Bool) {
        let done: Void? = key.utf8.withContiguousStorageIfAvailable { writeMemberPrefix($0, comma: comma) }
        if done == nil {
            var copy = key
            copy.withUTF8 { writeMemberPrefix($0, comma: comma) }
        }
    }

    private func writeMemberPrefix(_ key: UnsafeBufferPointer<UInt8>, comma: Bool) {
        let count = key.count
        guard Self.firstEscape(in: key, from: 0) == count else {
            if comma { append(UInt8(ascii: ",")) }
            writeQuoted(key)
            append(UInt8(ascii: ":"))
            return
        }
        let lead = comma ? 1 : 0
        let out = reserve(lead + count + 3)
        if comma { out[0] = UInt8(ascii: ",") }
        out[lead] = UInt8(ascii: "\"")
        if let base = key.baseAddress { (out + lead + 1).initialize(from: base, count: count) }
        out[lead + count + 1] = UInt8(ascii: "\"")
        out[lead + count + 2] = UInt8(ascii: ":")
        advance(lead + count + 3)
    }

    private func writeQuoted(_ buffer: UnsafeBufferPointer<UInt8>) {
        let count = buffer.count
        let first = Self.firstEscape(in: buffer, from: 0)
        if first == count {
            // No escapes (the common case): one reservation, one copy.
            let out = reserve(count + 2)
            out[0] = UInt8(ascii: "\"")
            if let base = buffer.baseAddress { (out + 1).initialize(from: base, count: count) }
            out[count + 1] = UInt8(ascii: "\"")
            advance(count + 2)
            return
        }
        append(UInt8(ascii: "\""))
        appendEscaped(buffer, firstEscape: first)
        append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>, firstEscape: Int) {
        var start = 0
        var index = firstEscape
        while index < buffer.count {
            let byte = buffer[index]
            append(UnsafeBufferPointer(rebasing: buffer[start..<index]))
            start = index + 1
            let out = reserve(6)
            out[0] = UInt8(ascii: "\\")
            var written = 2
            switch byte {
            case UInt8(ascii: "\""): out[1] = UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): out[1] = UInt8(ascii: "\\")
            case 0x0A: out[1] = UInt8(ascii: "n")
            case 0x0D: out[1] = UInt8(ascii: "r")
            case 0x09: out[1] = UInt8(ascii: "t")
            case 0x08: out[1] = UInt8(ascii: "b")
            case 0x0C: out[1] = UInt8(ascii: "f")
            default:
                out[1] = UInt8(ascii: "u")
                out[2] = UInt8(ascii: "0")
                out[3] = UInt8(ascii: "0")
                out[4] = Self.hexDigit(byte >> 4)
                out[5] = Self.hexDigit(byte & 0x0F)
                written = 6
            }
            advance(written)
            index = Self.firstEscape(in: buffer, from: start)
        }
        append(UnsafeBufferPointer(rebasing: buffer[start..<buffer.count]))
    }

    /// The index of the first byte at or after `start` that JSON requires escaped (a control
    /// character, `"` or `\\`), or `buffer.count`. Scans eight bytes at a time.
    private static func firstEscape(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        if let base = buffer.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= buffer.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let slash = word ^ (ones &* 0x5C)
                // A byte below 0x20, or equal to `"` or `\\`, sets its high bit in `found`.
                let below = (word &- ones &* 0x20) & ~word
                let isQuote = (quote &- ones) & ~quote
                let isSlash = (slash &- ones) & ~slash
                if (below | isQuote | isSlash) & highs != 0 { break }
                index += 8
            }
        }
        while index < buffer.count {
            let byte = buffer[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }
}
