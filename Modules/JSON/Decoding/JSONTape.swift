import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A validated JSON document behind ``StreamingJSONDecoder``: its bytes and one flat entry per
/// value, in document order.
///
/// ``JSONByteScanner`` builds it in one pass that checks the whole document; the decoder's
/// containers then read values by entry index. An object is its entry followed by key, value,
/// key, value…; an array by its elements; a container's entry says where the next sibling is, so
/// skipping a value costs nothing. Keys stay as bytes and are compared with a `CodingKey`'s UTF-8
/// (after unescaping, for the rare key with escapes). One `null` entry follows the document's
/// entries: the value a `superDecoder` sees for an absent member.
final class JSONTape {
    /// What one entry holds.
    enum Kind: UInt8 {
        case null, `true`, `false`, number, string, array, object

        /// How an error message names a value of this kind.
        var name: String {
            switch self {
            case .null: "null"
            case .true, .false: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    /// One value of the document.
    struct Entry {
        var kind: Kind
        /// ``stringHasEscapes``, ``numberIsInteger``, ``numberHasNonZeroDigit``.
        var flags: UInt8
        /// Scalars: the offset of the first byte (after the opening quote for strings).
        var start: UInt32
        /// Scalars: the offset after the last byte (the closing quote for strings);
        /// containers: the index of the entry after the container.
        var end: UInt32
        /// Containers: the number of elements or members.
        var count: UInt32
    }

    static let stringHasEscapes: UInt8 = 1
    static let numberIsInteger: UInt8 = 2
    static let numberHasNonZeroDigit: UInt8 = 4
    /// On an object: a member name has escapes or bytes beyond ASCII.
    static let objectHasSpecialNames: UInt8 = 8

    /// The document, followed by one zero byte.
    let bytes: UnsafeMutablePointer<UInt8>
    let entries: UnsafeMutablePointer<Entry>
    /// The number of entries, the trailing `null` included.
    let entryCount: Int
    /// How dates are read.
    let dateDecoding: StreamingJSONDecoder.DateDecoding

    // Everything below is used only by the one decoding call that owns this tape, never
    // concurrently.
    /// The decoder's user info, made into ``userInfo`` only when a value asks for it.
    @exclusivity(unchecked) var userInfoSource: [CodingUserInfoKey: any Sendable] = [:]
    @exclusivity(unchecked) private var madeUserInfo: [CodingUserInfoKey: Any]?
    /// Room for a string with escapes, as its unescaped bytes.
    @exclusivity(unchecked) private var scratch: UnsafeMutablePointer<UInt8>?
    @exclusivity(unchecked) private var scratchCapacity = 0
    /// Per coding-path depth: the object last searched there and the index of the key found, so
    /// members decoded in document order are found at the first or second comparison.
    @exclusivity(unchecked) private var hints: InlineArray<16, (object: Int, key: Int)>

    /// Takes ownership of `bytes` and `entries` (both from `malloc`).
    init(
        bytes: UnsafeMutablePointer<UInt8>,
        entries: UnsafeMutablePointer<Entry>,
        entryCount: Int,
        dateDecoding: StreamingJSONDecoder.DateDecoding
    ) {
        self.bytes = bytes
        self.entries = entries
        self.entryCount = entryCount
        self.dateDecoding = dateDecoding
        hints = InlineArray(repeating: (-1, -1))
    }

    /// Checks the document in `data` and lists its values.
    static func scan(
        _ data: Data,
        dateDecoding: StreamingJSONDecoder.DateDecoding
    ) throws(JSONByteScanner.SyntaxError) -> JSONTape {
        let count = data.count
        guard let bytes = malloc(count + 1)?.assumingMemoryBound(to: UInt8.self) else {
            fatalError("out of memory copying a JSON document of \(count) bytes")
        }
        data.withUnsafeBytes { source in
            if let base = source.baseAddress { memcpy(bytes, base, count) }
        }
        bytes[count] = 0
        var scanner = JSONByteScanner(bytes: bytes, byteCount: count)
        do {
            try scanner.scanDocument()
        } catch {
            scanner.discard()
            free(bytes)
            throw error
        }
        return JSONTape(
            bytes: bytes,
            entries: scanner.takeEntries(),
            entryCount: scanner.entryCount,
            dateDecoding: dateDecoding
        )
    }

    deinit {
        free(bytes)
        free(entries)
        free(scratch)
    }

    /// The user info handed to every value's decoder.
    var userInfo: [CodingUserInfoKey: Any] {
        if let madeUserInfo { return madeUserInfo }
        let userInfo: [CodingUserInfoKey: Any] = userInfoSource
        madeUserInfo = userInfo
        return userInfo
    }

    /// The `null` entry after the document.
    var nullIndex: Int { entryCount - 1 }

    // MARK: Errors

    /// The error for a value of the wrong kind: `valueNotFound` for `null`, else `typeMismatch`.
    func mismatch(_ type: Any.Type, at index: Int, _ path: [any CodingKey]) -> DecodingError {
        let kind = entries[index].kind
        let expected = Self.jsonName(of: type)
        if kind == .null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(expected), found null"))
        }
        return .typeMismatch(
            type, .init(codingPath: path, debugDescription: "expected \(expected), found \(kind.name)"))
    }

    /// How an error message names the JSON a type reads.
    private static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is any FixedWidthInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type, is Decimal.Type: "a number"
        default: "\(type)"
        }
    }

    /// A `dataCorrupted` error.
    func corrupted(_ message: String, _ path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: path, debugDescription: message))
    }

    // MARK: Navigation

    @inline(__always)
    subscript(index: Int) -> Entry {
        entries[index]
    }

    /// The index of the entry after the value at `index` and everything inside it.
    @inline(__always)
    func next(after index: Int) -> Int {
        let entry = entries[index]
        return entry.kind.rawValue >= Kind.array.rawValue ? Int(entry.end) : index + 1
    }

    /// The index of the value of `key` in the object at `object`, or `nil` when it has none.
    ///
    /// Keys match as Swift strings do (canonical equivalence): first by their UTF-8 bytes, and
    /// for an object with names beyond plain ASCII then as strings.
    func valueIndex(forKey key: String, inObject object: Int, depth: Int) -> Int? {
        let entry = entries[object]
        guard entry.count > 0 else { return nil }
        if let index = byteMatch(forKey: key, inObject: object, depth: depth) { return index }
        guard entry.flags & Self.objectHasSpecialNames != 0 || key.utf8.contains(where: { $0 >= 0x80 }) else {
            return nil
        }
        var index = object + 1
        while index < Int(entry.end) {
            if keyString(at: index) == key { return index + 1 }
            index = next(after: index + 1)
        }
        return nil
    }

    private func byteMatch(forKey key: String, inObject object: Int, depth: Int) -> Int? {
        let end = Int(entries[object].end)
        var key = key
        return key.withUTF8 { wanted -> Int? in
            var start = object + 1
            if depth < hints.count, hints[depth].object == object { start = hints[depth].key }
            var index = start
            repeat {
                if keyEquals(at: index, wanted) {
                    if depth < hints.count { hints[depth] = (object, index) }
                    return index + 1
                }
                index = next(after: index + 1)
                if index >= end { index = object + 1 }
            } while index != start
            return nil
        }
    }

    @inline(__always)
    private func keyEquals(at index: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[index]
        let count = Int(entry.end &- entry.start)
        if entry.flags & Self.stringHasEscapes != 0 {
            let key = unescape(bytes + Int(entry.start), count: count)
            return key.count == wanted.count
                && (key.isEmpty || memcmp(key.baseAddress!, wanted.baseAddress!, key.count) == 0)
        }
        guard count == wanted.count else { return false }
        guard count > 0 else { return true }
        return memcmp(bytes + Int(entry.start), wanted.baseAddress!, count) == 0
    }

    /// The member name (or any string) at `index`, unescaped.
    func keyString(at index: Int) -> String {
        let entry = entries[index]
        let start = bytes + Int(entry.start)
        let count = Int(entry.end - entry.start)
        if entry.flags & Self.stringHasEscapes != 0 {
            return String(decoding: unescape(start, count: count), as: UTF8.self)
        }
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    // MARK: Scalars

    func isNull(at index: Int) -> Bool {
        entries[index].kind == .null
    }

    func bool(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        switch entries[index].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(Bool.self, at: index, path())
        }
    }

    @inline(__always)
    func string(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> String {
        let entry = entries[index]
        guard entry.kind == .string else { throw mismatch(String.self, at: index, path()) }
        return text(of: entry)
    }

    /// The text of a string entry, unescaped.
    @inline(__always)
    private func text(of entry: Entry) -> String {
        let start = bytes + Int(entry.start)
        let count = Int(entry.end - entry.start)
        guard entry.flags & Self.stringHasEscapes != 0 else {
            return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        }
        return String(decoding: unescape(start, count: count), as: UTF8.self)
    }

    /// The exact text of a number entry.
    private func numberText(_ entry: Entry) -> String {
        String(
            decoding: UnsafeBufferPointer(start: bytes + Int(entry.start), count: Int(entry.end - entry.start)),
            as: UTF8.self)
    }

    /// The bytes of a validated string with escapes, unescaped into ``scratch``.
    private func unescape(_ source: UnsafePointer<UInt8>, count: Int) -> UnsafeBufferPointer<UInt8> {
        if scratchCapacity < count {
            free(scratch)
            scratch = malloc(count)?.assumingMemoryBound(to: UInt8.self)
            guard scratch != nil else { fatalError("out of memory unescaping a JSON string of \(count) bytes") }
            scratchCapacity = count
        }
        let output = scratch.unsafelyUnwrapped
        return UnsafeBufferPointer(start: output, count: Self.unescape(source, count: count, into: output))
    }

    /// Writes the bytes of a validated string with escapes, unescaped, to `output` (room for
    /// `count` bytes: unescaping never lengthens) and returns how many it wrote.
    static func unescape(_ source: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var read = 0
        var written = 0
        while read < count {
            let byte = source[read]
            guard byte == UInt8(ascii: "\\") else {
                output[written] = byte
                written += 1
                read += 1
                continue
            }
            let escaped = source[read + 1]
            read += 2
            switch escaped {
            case UInt8(ascii: "b"): output[written] = 0x08
            case UInt8(ascii: "f"): output[written] = 0x0C
            case UInt8(ascii: "n"): output[written] = 0x0A
            case UInt8(ascii: "r"): output[written] = 0x0D
            case UInt8(ascii: "t"): output[written] = 0x09
            case UInt8(ascii: "u"):
                var scalar = Self.hex4(source + read)
                read += 4
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // The scanner checked that a low surrogate follows.
                    let low = Self.hex4(source + read + 2)
                    read += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                written += Self.writeUTF8(scalar, to: output + written)
                continue
            default: output[written] = escaped  // " \ /
            }
            written += 1
        }
        return written
    }

    /// The value of four hexadecimal digits (validated by the scanner).
    static func hex4(_ digits: UnsafePointer<UInt8>) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            let digit = UInt32(digits[offset])
            let nibble: UInt32 =
                switch digit {
                case 0x30...0x39: digit - 0x30
                case 0x41...0x46: digit - 0x41 + 10
                default: digit - 0x61 + 10
                }
            value = value << 4 | nibble
        }
        return value
    }

    private static func writeUTF8(_ scalar: UInt32, to output: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            output[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            output[0] = UInt8(0xC0 | scalar >> 6)
            output[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            output[0] = UInt8(0xE0 | scalar >> 12)
            output[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            output[0] = UInt8(0xF0 | scalar >> 18)
            output[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            output[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// A plain integer (no fraction, no exponent) that fits `T`; anything else is refused,
    /// `1e2` and `100.0` included.
    func integer<T: FixedWidthInteger>(
        at index: Int,
        as type: T.Type,
        _ path: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        let entry = entries[index]
        guard entry.kind == .number else { throw mismatch(T.self, at: index, path()) }
        guard entry.flags & Self.numberIsInteger != 0 else {
            throw corrupted("expected an integer without fraction or exponent, found \(numberText(entry))", path())
        }
        var position = Int(entry.start)
        let end = Int(entry.end)
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var magnitude: UInt64 = 0
        var overflow = end - position > 20
        while !overflow, position < end {
            let (times10, high) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(bytes[position] &- 0x30))
            overflow = high || carry
            magnitude = sum
            position += 1
        }
        if !overflow, negative, magnitude == 0 || (T.isSigned && magnitude <= UInt64(T.max) + 1) {
            return T(truncatingIfNeeded: 0 &- magnitude)
        }
        if !overflow, !negative, magnitude <= UInt64(T.max) { return T(truncatingIfNeeded: magnitude) }
        throw corrupted("the number \(numberText(entry)) does not fit in \(T.self)", path())
    }

    /// A plain integer that fits a 128-bit integer type.
    func wideInteger<T: FixedWidthInteger>(
        at index: Int,
        as type: T.Type,
        _ path: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        let entry = entries[index]
        guard entry.kind == .number else { throw mismatch(T.self, at: index, path()) }
        let text = numberText(entry)
        guard entry.flags & Self.numberIsInteger != 0 else {
            throw corrupted("expected an integer without fraction or exponent, found \(text)", path())
        }
        guard let value = T(text, radix: 10) else {
            throw corrupted("the number \(text) does not fit in \(T.self)", path())
        }
        return value
    }

    /// A number as a `Double`, correctly rounded; numbers beyond `Double`'s range, and non-zero
    /// numbers that would round to zero, are refused.
    func double(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Double {
        let entry = entries[index]
        guard entry.kind == .number else { throw mismatch(Double.self, at: index, path()) }
        let start = Int(entry.start)
        let end = Int(entry.end)
        let negative = bytes[start] == UInt8(ascii: "-")
        if entry.flags & Self.numberIsInteger != 0, end - start - (negative ? 1 : 0) <= 15 {
            // At most 15 digits: exact in a Double, as the correctly rounded parse gives.
            var magnitude: UInt64 = 0
            for position in (negative ? start + 1 : start)..<end {
                magnitude = magnitude * 10 + UInt64(bytes[position] &- 0x30)
            }
            let value = Double(magnitude)
            return negative ? -value : value
        }
        let text = numberText(entry)
        guard let value = Double(text), value.isFinite, value != 0 || entry.flags & Self.numberHasNonZeroDigit == 0
        else { throw corrupted("the number \(text) is not representable as Double", path()) }
        return value
    }

    /// A number as a `Float`, correctly rounded from its text; numbers beyond `Float`'s range,
    /// and non-zero numbers that would round to zero, are refused.
    func float(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Float {
        let entry = entries[index]
        guard entry.kind == .number else { throw mismatch(Float.self, at: index, path()) }
        let text = numberText(entry)
        guard let value = Float(text), value.isFinite, value != 0 || entry.flags & Self.numberHasNonZeroDigit == 0
        else { throw corrupted("the number \(text) is not representable as Float", path()) }
        return value
    }

    /// A number as a `Decimal`, from its exact text.
    func decimal(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Decimal {
        let entry = entries[index]
        guard entry.kind == .number else { throw mismatch(Decimal.self, at: index, path()) }
        let text = numberText(entry)
        guard let value = Decimal(string: text, locale: nil) else {
            throw corrupted("the number \(text) is not representable as Decimal", path())
        }
        return value
    }

    /// A date, read with ``dateDecoding``.
    func date(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Date {
        switch dateDecoding {
        case .deferredToDate: return Date(timeIntervalSinceReferenceDate: try double(at: index, path()))
        case .secondsSince1970: return Date(timeIntervalSince1970: try double(at: index, path()))
        case .millisecondsSince1970: return Date(timeIntervalSince1970: try double(at: index, path()) / 1000)
        case .iso8601:
            let text = try string(at: index, path())
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw corrupted("expected an ISO 8601 date, found \"\(text)\"", path())
            }
            return date
        }
    }

    /// Bytes from a base64 string (RFC 4648, with padding).
    func data(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Data {
        let text = try string(at: index, path())
        guard let data = Data(base64Encoded: text) else {
            throw corrupted("expected base64, found a string that is not", path())
        }
        return data
    }

    /// A URL from a string.
    func url(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> URL {
        let text = try string(at: index, path())
        guard let url = URL(string: text) else { throw corrupted("expected a URL, found \"\(text)\"", path()) }
        return url
    }
}
