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
/// skipping a value costs nothing. Keys stay as bytes and are compared with a `CodingKey`'s UTF-8.
///
/// Every error the decoder throws goes through ``failure(_:)``, which also marks the tape as
/// ``failed``: a value that catches an error (`try?`) could otherwise succeed with a result that
/// differs from Foundation's, so a failed tape never yields a result.
final class JSONTape {
    /// What one entry holds.
    enum Kind: UInt8 {
        case null, `true`, `false`, number, string, array, object
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

    /// The document, followed by one zero byte.
    let bytes: UnsafeMutablePointer<UInt8>
    let entries: UnsafeMutablePointer<Entry>
    let entryCount: Int

    // Everything below is used only by the one decoding call that owns this tape, never
    // concurrently.
    /// The decoder's user info and the key path entry to add to it, made into ``userInfo`` only
    /// when a value asks for it.
    @exclusivity(unchecked) var userInfoSource:
        (base: [CodingUserInfoKey: any Sendable], keyPath: (key: CodingUserInfoKey, value: [String])?) = ([:], nil)
    @exclusivity(unchecked) private var madeUserInfo: [CodingUserInfoKey: Any]?
    /// Whether an error was thrown while decoding: the result is then discarded.
    @exclusivity(unchecked) private(set) var failed = false
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
        entryCount: Int
    ) {
        self.bytes = bytes
        self.entries = entries
        self.entryCount = entryCount
        hints = InlineArray(repeating: (-1, -1))
    }

    deinit {
        free(bytes)
        free(entries)
        free(scratch)
    }

    /// The user info handed to every value's decoder.
    var userInfo: [CodingUserInfoKey: Any] {
        if let madeUserInfo { return madeUserInfo }
        var userInfo: [CodingUserInfoKey: Any] = userInfoSource.base
        if let (key, value) = userInfoSource.keyPath { userInfo[key] = value }
        madeUserInfo = userInfo
        return userInfo
    }

    // MARK: Failing

    /// Marks the tape as failed and returns the error to throw.
    func failure(_ reason: StaticString) -> StreamingJSONDecoder.Failure {
        failed = true
        return StreamingJSONDecoder.Failure(reason: reason)
    }

    /// Marks the tape as failed without throwing (for requirements that cannot throw).
    func markFailed() {
        failed = true
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
    /// Keys in the document are ASCII without escapes (the scanner falls back otherwise), so
    /// equal bytes mean equal keys; a `key` that is not ASCII could still equal one of them as a
    /// Swift string (`"\u{212A}" == "K"`), so not finding such a key marks the tape as failed.
    func valueIndex(forKey key: String, inObject object: Int, depth: Int) -> Int? {
        let entry = entries[object]
        let end = Int(entry.end)
        guard entry.count > 0 else { return notFound(key) }
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
            return notFound(wanted)
        }
    }

    private func notFound(_ key: String) -> Int? {
        var key = key
        return key.withUTF8 { notFound($0) }
    }

    private func notFound(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        if key.contains(where: { $0 >= 0x80 }) { markFailed() }
        return nil
    }

    @inline(__always)
    private func keyEquals(at index: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[index]
        let count = Int(entry.end &- entry.start)
        guard count == wanted.count else { return false }
        guard count > 0 else { return true }
        return memcmp(bytes + Int(entry.start), wanted.baseAddress!, count) == 0
    }

    /// The key at `index` (ASCII without escapes) as a string.
    func keyString(at index: Int) -> String {
        let entry = entries[index]
        return String(
            decoding: UnsafeBufferPointer(start: bytes + Int(entry.start), count: Int(entry.end - entry.start)),
            as: UTF8.self
        )
    }

    // MARK: Scalars

    func isNull(at index: Int) -> Bool {
        entries[index].kind == .null
    }

    func bool(at index: Int) throws(StreamingJSONDecoder.Failure) -> Bool {
        switch entries[index].kind {
        case .true: return true
        case .false: return false
        default: throw failure("expected a Bool")
        }
    }

    func string(at index: Int) throws(StreamingJSONDecoder.Failure) -> String {
        let entry = entries[index]
        guard entry.kind == .string else { throw failure("expected a String") }
        let start = bytes + Int(entry.start)
        let count = Int(entry.end - entry.start)
        guard entry.flags & Self.stringHasEscapes != 0 else {
            return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        }
        return String(decoding: unescape(start, count: count), as: UTF8.self)
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
        return UnsafeBufferPointer(start: output, count: written)
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

    /// A plain integer (no fraction, no exponent) that fits `T`; anything else fails.
    func integer<T: FixedWidthInteger>(at index: Int, as type: T.Type) throws(StreamingJSONDecoder.Failure) -> T {
        let entry = entries[index]
        guard entry.kind == .number, entry.flags & Self.numberIsInteger != 0 else {
            throw failure("expected a plain integer")
        }
        var position = Int(entry.start)
        let end = Int(entry.end)
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        guard end - position <= 20 else { throw failure("integer out of range") }
        var magnitude: UInt64 = 0
        while position < end {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(bytes[position] &- 0x30))
            guard !overflow, !carry else { throw failure("integer out of range") }
            magnitude = sum
            position += 1
        }
        if negative {
            guard T.isSigned, magnitude <= UInt64(T.max) + 1 else { throw failure("integer out of range") }
            return T(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(T.max) else { throw failure("integer out of range") }
        return T(truncatingIfNeeded: magnitude)
    }

    /// A number as a `Double`, parsed as Foundation does; values Foundation rejects or might
    /// round differently (overflow, underflow, subnormal) fail.
    func double(at index: Int) throws(StreamingJSONDecoder.Failure) -> Double {
        let entry = entries[index]
        guard entry.kind == .number else { throw failure("expected a number") }
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
        let text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw failure("number out of Double's range") }
        if value == 0 {
            guard entry.flags & Self.numberHasNonZeroDigit == 0 else { throw failure("number underflows Double") }
        } else if value.magnitude < Double.leastNormalMagnitude {
            throw failure("subnormal Double")
        }
        return value
    }

    /// A number as a `Float`: parsed as a `Double` and rounded to a finite `Float` that is zero
    /// only for a zero and subnormal never, and only when rounding the text directly to `Float`
    /// gives the same value.
    func float(at index: Int) throws(StreamingJSONDecoder.Failure) -> Float {
        let wide = try double(at: index)
        let narrow = Float(wide)
        guard narrow.isFinite, narrow == 0 ? wide == 0 : narrow.isNormal else {
            throw failure("number out of Float's range")
        }
        let entry = entries[index]
        let text = String(
            decoding: UnsafeBufferPointer(start: bytes + Int(entry.start), count: Int(entry.end - entry.start)),
            as: UTF8.self
        )
        guard let direct = Float(text), direct.bitPattern == narrow.bitPattern else {
            throw failure("Float rounding differs")
        }
        return narrow
    }
}
