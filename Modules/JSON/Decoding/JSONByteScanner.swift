import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks a whole JSON document and lists its values as ``JSONTape`` entries, in one pass.
///
/// It accepts strict JSON (RFC 8259) only: no byte-order mark, valid UTF-8 without lone
/// surrogates (escaped or not), no duplicate member names in an object (compared once
/// unescaped), nesting at most ``maximumDepth`` deep, less than 4 GiB. The whole document is
/// checked, not only the parts a value decodes, so that every reader of the same bytes sees the
/// same value or none.
struct JSONByteScanner {
    /// Why a document is not accepted, and where.
    struct SyntaxError: Error {
        /// What is wrong.
        let reason: StaticString
        /// The offset of the byte where it was found.
        let offset: Int
        /// The member name, for a duplicate (as written, escapes left as they are, at most 64 bytes).
        var member: String? = nil

        /// The error as a decoder reports it.
        var decodingError: DecodingError {
            let name = member.map { " \"\($0)\"" } ?? ""
            return .dataCorrupted(
                .init(codingPath: [], debugDescription: "not valid JSON: \(reason)\(name) at byte \(offset)"))
        }
    }

    /// The deepest nesting accepted.
    static let maximumDepth = 256
    /// Objects with at most this many members are checked for duplicate keys pairwise.
    private static let pairwiseLimit = 12

    private let bytes: UnsafePointer<UInt8>
    private let byteCount: Int
    private var position = 0
    private var entries: UnsafeMutablePointer<JSONTape.Entry>
    private var capacity: Int
    private(set) var entryCount = 0
    /// Key hashes and entry indexes of a large object, reused.
    private var keyScratch: [(hash: UInt64, index: Int)] = []

    /// Scans `byteCount` bytes at `bytes`, which must be followed by one zero byte.
    ///
    /// The entries come from `malloc`; take them with ``takeEntries()``.
    init(bytes: UnsafePointer<UInt8>, byteCount: Int) {
        self.bytes = bytes
        self.byteCount = byteCount
        capacity = Swift.max(16, Swift.min(byteCount / 4, 1 << 16))
        guard let storage = malloc(capacity * MemoryLayout<JSONTape.Entry>.stride) else {
            fatalError("out of memory scanning a JSON document of \(byteCount) bytes")
        }
        entries = storage.assumingMemoryBound(to: JSONTape.Entry.self)
    }

    /// Hands over the entries; the scanner must not be used afterwards.
    func takeEntries() -> UnsafeMutablePointer<JSONTape.Entry> {
        entries
    }

    /// Frees the entries after a failed scan.
    func discard() {
        free(entries)
    }

    /// Scans the document: one value between optional whitespace.
    ///
    /// One `null` entry is added after the document's own (see ``JSONTape``).
    mutating func scanDocument() throws(SyntaxError) {
        guard byteCount < Int(UInt32.max) - 1 else { throw fail("the document is 4 GiB or more") }
        guard !(byteCount >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF) else {
            throw fail("a byte-order mark is not allowed")
        }
        skipWhitespace()
        guard position < byteCount else { throw fail("the document is empty") }
        try scanValue(depth: 0)
        skipWhitespace()
        guard position == byteCount else { throw fail("unexpected bytes after the value") }
        _ = append(JSONTape.Entry(kind: .null, flags: 0, start: 0, end: 0, count: 0))
    }

    // MARK: Values

    @inline(__always)
    private func fail(_ reason: StaticString) -> SyntaxError {
        SyntaxError(reason: reason, offset: position)
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while true {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    private mutating func append(_ entry: JSONTape.Entry) -> Int {
        if entryCount == capacity { grow() }
        entries[entryCount] = entry
        entryCount += 1
        return entryCount - 1
    }

    private mutating func grow() {
        capacity *= 2
        guard let grown = realloc(entries, capacity * MemoryLayout<JSONTape.Entry>.stride) else {
            fatalError("out of memory scanning a JSON document of \(byteCount) bytes")
        }
        entries = grown.assumingMemoryBound(to: JSONTape.Entry.self)
    }

    private mutating func scanValue(depth: Int) throws(SyntaxError) {
        switch bytes[position] {
        case UInt8(ascii: "{"): try scanObject(depth: depth + 1)
        case UInt8(ascii: "["): try scanArray(depth: depth + 1)
        case UInt8(ascii: "\""): try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
        case UInt8(ascii: "t"): try scanLiteral("true", .true)
        case UInt8(ascii: "f"): try scanLiteral("false", .false)
        case UInt8(ascii: "n"): try scanLiteral("null", .null)
        default: throw fail("expected a value")
        }
    }

    private mutating func scanLiteral(_ text: StaticString, _ kind: JSONTape.Kind) throws(SyntaxError) {
        let count = text.utf8CodeUnitCount
        // The zero byte after the document stops a comparison that runs past its end.
        for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] {
            throw fail("invalid literal")
        }
        _ = append(
            JSONTape.Entry(kind: kind, flags: 0, start: UInt32(position), end: UInt32(position + count), count: 0))
        position += count
    }

    private mutating func scanNumber() throws(SyntaxError) {
        let start = position
        var flags = JSONTape.numberIsInteger
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else if isDigit(bytes[position]) {
            flags |= JSONTape.numberHasNonZeroDigit
            while isDigit(bytes[position]) { position += 1 }
        } else {
            throw fail("invalid number")
        }
        if bytes[position] == UInt8(ascii: ".") {
            flags &= ~JSONTape.numberIsInteger
            position += 1
            guard isDigit(bytes[position]) else { throw fail("invalid number") }
            while isDigit(bytes[position]) {
                if bytes[position] != UInt8(ascii: "0") { flags |= JSONTape.numberHasNonZeroDigit }
                position += 1
            }
        }
        if bytes[position] | 0x20 == UInt8(ascii: "e") {
            flags &= ~JSONTape.numberIsInteger
            position += 1
            if bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard isDigit(bytes[position]) else { throw fail("invalid number") }
            while isDigit(bytes[position]) { position += 1 }
        }
        _ = append(JSONTape.Entry(kind: .number, flags: flags, start: UInt32(start), end: UInt32(position), count: 0))
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Scans a string and returns whether it has escapes or bytes beyond ASCII.
    @discardableResult
    private mutating func scanString() throws(SyntaxError) -> Bool {
        position += 1
        let start = position
        var flags: UInt8 = 0
        var special = false
        while true {
            // Plain ASCII eight bytes at a time.
            while position + 8 <= byteCount,
                !Self.hasSpecialByte(UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self))
            {
                position += 8
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                flags = JSONTape.stringHasEscapes
                try scanEscape()
            } else if byte < 0x20 {
                throw fail("control character in a string")
            } else if byte >= 0x80 {
                special = true
                try scanUTF8Sequence()
            } else {
                position += 1
            }
        }
        _ = append(JSONTape.Entry(kind: .string, flags: flags, start: UInt32(start), end: UInt32(position), count: 0))
        position += 1
        return special || flags != 0
    }

    /// Whether one of eight bytes is a quote, a backslash, a control character or not ASCII.
    @inline(__always)
    private static func hasSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        // A byte below 0x20 borrows when 0x20 is subtracted; a zero byte of `quote` or
        // `backslash` when 0x01 is.
        let control = word &- ones &* 0x20
        let found = (control | (quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & ~word | word
        return found & highBits != 0
    }

    private mutating func scanEscape() throws(SyntaxError) {
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            let scalar = try hex4(at: position + 2)
            position += 6
            if scalar >= 0xDC00 && scalar < 0xE000 { throw fail("lone low surrogate") }
            if scalar >= 0xD800 && scalar < 0xDC00 {
                guard bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw fail("lone high surrogate")
                }
                let low = try hex4(at: position + 2)
                guard low >= 0xDC00 && low < 0xE000 else { throw fail("lone high surrogate") }
                position += 6
            }
        default:
            throw fail("invalid escape")
        }
    }

    private func hex4(at start: Int) throws(SyntaxError) -> UInt32 {
        for offset in 0..<4 {
            switch bytes[start + offset] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                continue
            default:
                throw fail("invalid \\u escape")
            }
        }
        return JSONTape.hex4(bytes + start)
    }

    /// Checks one multi-byte UTF-8 sequence (RFC 3629: no overlong forms, no surrogates).
    private mutating func scanUTF8Sequence() throws(SyntaxError) {
        let lead = bytes[position]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw fail("invalid UTF-8")
        }
        guard position + length <= byteCount else { throw fail("invalid UTF-8") }
        let second = bytes[position + 1]
        guard second >= low, second <= high else { throw fail("invalid UTF-8") }
        // The zero byte after the document is not a continuation byte, so no read passes it.
        for offset in 2..<Swift.max(length, 2) where bytes[position + offset] & 0xC0 != 0x80 {
            throw fail("invalid UTF-8")
        }
        position += length
    }

    private mutating func scanArray(depth: Int) throws(SyntaxError) {
        guard depth <= Self.maximumDepth else { throw fail("nested too deeply") }
        let index = append(JSONTape.Entry(kind: .array, flags: 0, start: UInt32(position), end: 0, count: 0))
        position += 1
        skipWhitespace()
        var count: UInt32 = 0
        if bytes[position] != UInt8(ascii: "]") {
            while true {
                try scanValue(depth: depth)
                count += 1
                skipWhitespace()
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else { throw fail("expected , or ]") }
                break
            }
        }
        position += 1
        entries[index].end = UInt32(entryCount)
        entries[index].count = count
    }

    private mutating func scanObject(depth: Int) throws(SyntaxError) {
        guard depth <= Self.maximumDepth else { throw fail("nested too deeply") }
        let index = append(JSONTape.Entry(kind: .object, flags: 0, start: UInt32(position), end: 0, count: 0))
        position += 1
        skipWhitespace()
        var count: UInt32 = 0
        var specialNames = false
        if bytes[position] != UInt8(ascii: "}") {
            while true {
                guard bytes[position] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                if try scanString() { specialNames = true }
                skipWhitespace()
                guard bytes[position] == UInt8(ascii: ":") else { throw fail("expected :") }
                position += 1
                skipWhitespace()
                try scanValue(depth: depth)
                count += 1
                skipWhitespace()
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    continue
                }
                guard bytes[position] == UInt8(ascii: "}") else { throw fail("expected , or }") }
                break
            }
        }
        position += 1
        entries[index].end = UInt32(entryCount)
        entries[index].count = count
        if specialNames { entries[index].flags = JSONTape.objectHasSpecialNames }
        if count > 1 {
            if specialNames {
                try checkDuplicateSpecialNames(object: index, count: Int(count))
            } else {
                try checkDuplicateKeys(object: index, count: Int(count))
            }
        }
    }

    // MARK: Duplicate keys

    @inline(__always)
    private func next(after index: Int) -> Int {
        let entry = entries[index]
        return entry.kind.rawValue >= JSONTape.Kind.array.rawValue ? Int(entry.end) : index + 1
    }

    private func keysEqual(_ first: Int, _ second: Int) -> Bool {
        let one = entries[first]
        let other = entries[second]
        let count = Int(one.end - one.start)
        guard Int(other.end - other.start) == count else { return false }
        return memcmp(bytes + Int(one.start), bytes + Int(other.start), count) == 0
    }

    /// The error for the member name at `key`, which repeats an earlier one.
    private func duplicate(_ key: Int) -> SyntaxError {
        let entry = entries[key]
        let count = min(Int(entry.end - entry.start), 64)
        let name = String(decoding: UnsafeBufferPointer(start: bytes + Int(entry.start), count: count), as: UTF8.self)
        return SyntaxError(reason: "duplicate member name", offset: Int(entry.start), member: name)
    }

    private mutating func checkDuplicateKeys(object: Int, count: Int) throws(SyntaxError) {
        if count <= Self.pairwiseLimit {
            var key = object + 1
            for _ in 0..<count - 1 {
                var other = next(after: key + 1)
                while other < Int(entries[object].end) {
                    if keysEqual(key, other) {
                        throw duplicate(other)
                    }
                    other = next(after: other + 1)
                }
                key = next(after: key + 1)
            }
            return
        }
        keyScratch.removeAll(keepingCapacity: true)
        var key = object + 1
        for _ in 0..<count {
            keyScratch.append((hash(key), key))
            key = next(after: key + 1)
        }
        keyScratch.sort { $0.hash < $1.hash }
        for offset in 1..<keyScratch.count where keyScratch[offset].hash == keyScratch[offset - 1].hash {
            // Equal hashes: compare with every earlier key of the same hash.
            var earlier = offset - 1
            while earlier >= 0, keyScratch[earlier].hash == keyScratch[offset].hash {
                if keysEqual(keyScratch[earlier].index, keyScratch[offset].index) {
                    let later = Swift.max(keyScratch[earlier].index, keyScratch[offset].index)
                    throw duplicate(later)
                }
                earlier -= 1
            }
        }
    }

    /// The duplicate check of an object with a name with escapes or beyond ASCII: names are
    /// compared as Swift strings (once unescaped, canonical equivalence), as a `Decodable`
    /// reading them by `CodingKey` would.
    private func checkDuplicateSpecialNames(object: Int, count: Int) throws(SyntaxError) {
        var seen = Set<String>(minimumCapacity: count)
        var key = object + 1
        for _ in 0..<count {
            let entry = entries[key]
            let length = Int(entry.end - entry.start)
            let unescaped = [UInt8](unsafeUninitializedCapacity: length) { buffer, written in
                if entry.flags & JSONTape.stringHasEscapes != 0 {
                    written = JSONTape.unescape(bytes + Int(entry.start), count: length, into: buffer.baseAddress!)
                } else {
                    if length > 0 { buffer.baseAddress!.initialize(from: bytes + Int(entry.start), count: length) }
                    written = length
                }
            }
            guard seen.insert(String(decoding: unescaped, as: UTF8.self)).inserted else {
                throw SyntaxError(reason: "duplicate member name", offset: Int(entry.start))
            }
            key = next(after: key + 1)
        }
    }

    /// FNV-1a over a key's bytes.
    private func hash(_ index: Int) -> UInt64 {
        let entry = entries[index]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for offset in Int(entry.start)..<Int(entry.end) {
            hash = (hash ^ UInt64(bytes[offset])) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
