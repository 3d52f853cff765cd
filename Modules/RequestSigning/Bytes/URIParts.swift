#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte ranges of the parts of an absolute URI (`scheme://userinfo@authority/path?query#fragment`),
/// found without decoding or copying anything.
struct URIRanges {
    /// The scheme, before `://`.
    var scheme: Range<Int>
    /// The authority without user information.
    var authority: Range<Int>
    /// The path (possibly empty).
    var path: Range<Int>
    /// The query without `?`, or `nil` when there is no `?`.
    var query: Range<Int>?

    /// Splits `bytes`, or returns `nil` when they do not start with `scheme://`.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        guard let first = bytes.first, SFCharacters.isLetter(first) else { return nil }
        while index < bytes.count {
            let byte = bytes[index]
            guard
                SFCharacters.isLetter(byte) || SFCharacters.isDigit(byte) || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { break }
            index += 1
        }
        guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
            bytes[index + 2] == UInt8(ascii: "/")
        else { return nil }
        scheme = 0..<index
        var authorityStart = index + 3
        var position = authorityStart
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            // '/' 0x2F, '?' 0x3F, '#' 0x23, '@' 0x40: everything else is skipped by one test.
            if byte == 0x2F || byte == 0x3F || byte == 0x23 { break }
            if byte == 0x40 { authorityStart = position + 1 }
            position += 1
        }
        authority = authorityStart..<position
        let pathStart = position
        let base = bytes.baseAddress!
        // The path ends at the first '?' or '#'; memchr finds them with vector instructions.
        let questionMark = Self.find(0x3F, in: base, from: pathStart, to: count) ?? count
        let pathEnd = Self.find(0x23, in: base, from: pathStart, to: questionMark) ?? questionMark
        path = pathStart..<pathEnd
        query = nil
        if pathEnd == questionMark && questionMark < count {
            let queryStart = questionMark + 1
            query = queryStart..<(Self.find(0x23, in: base, from: queryStart, to: count) ?? count)
        }
    }

    /// The offset of the first `byte` in `start..<end`, or `nil`.
    private static func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}

/// The parts of an absolute URI as strings (the scheme lowercased).
struct URIParts {
    var scheme: String
    var authority: String
    var path: String
    var query: String?

    /// Splits `text`, or returns `nil` when it does not start with `scheme://`.
    init?(_ text: String) {
        guard
            let parts = ByteText.withBytes(
                text,
                { bytes -> URIParts? in
                    guard let ranges = URIRanges(bytes) else { return nil }
                    func string(_ range: Range<Int>) -> String {
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                    }
                    var scheme: [UInt8] = []
                    ByteText.appendLowercased(UnsafeBufferPointer(rebasing: bytes[ranges.scheme]), to: &scheme)
                    return URIParts(
                        scheme: String(decoding: scheme, as: UTF8.self), authority: string(ranges.authority),
                        path: string(ranges.path), query: ranges.query.map(string))
                })
        else { return nil }
        self = parts
    }

    private init(scheme: String, authority: String, path: String, query: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
    }
}
