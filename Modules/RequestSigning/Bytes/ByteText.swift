/// Byte-level helpers for the hot paths: reading strings as UTF-8 buffers without creating
/// intermediate strings.
enum ByteText {
    /// Calls `body` with the UTF-8 bytes of `text` (no copy for native strings).
    @inline(__always)
    static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// Whether `text` equals `lowercase` (already lowercase ASCII) ignoring ASCII case.
    @inline(__always)
    static func equalsIgnoringCase(_ text: String, lowercase: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.utf8.count == lowercase.count else { return false }
        return withBytes(text) { bytes in
            for index in 0..<bytes.count {
                var byte = bytes[index]
                if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
                if byte != lowercase[index] { return false }
            }
            return true
        }
    }

    /// Whether `text` equals a lowercase ASCII literal, ignoring ASCII case.
    @inline(__always)
    static func equalsIgnoringCase(_ text: String, _ literal: StaticString) -> Bool {
        equalsIgnoringCase(
            text, lowercase: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Whether every byte is visible ASCII or non-ASCII (nothing at or below space, no DEL):
    /// what derived components may hold.
    static func isVisible(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { allAtLeast(0x21, noDelete: bytes) }

    /// Whether every byte is a space, visible ASCII or non-ASCII (no control byte, no DEL): what
    /// a field value holds, but for the tabs the callers check byte by byte when this fails.
    static func isPrintable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { allAtLeast(0x20, noDelete: bytes) }

    /// Whether every byte is at least `lowest` (at most 0x80) and none is DEL.
    @inline(__always)
    private static func allAtLeast(_ lowest: UInt8, noDelete bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        // Eight bytes per step: the high bit of a byte of `invalid` is set for a byte below
        // `lowest` or equal to 0x7F (a borrow may also mark a later byte, which does not change
        // the answer).
        let floor = UInt64(lowest) &* 0x0101_0101_0101_0101
        var invalid: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            invalid |= (word &- floor) & ~word
            let delete = word ^ 0x7F7F_7F7F_7F7F_7F7F
            invalid |= (delete &- 0x0101_0101_0101_0101) & ~delete
            index += 8
        }
        var tail: UInt8 = 0
        while index < bytes.count {
            let byte = base[index]
            tail |= (byte < lowest ? 1 : 0) | (byte == 0x7F ? 1 : 0)
            index += 1
        }
        return invalid & 0x8080_8080_8080_8080 == 0 && tail == 0
    }

    /// The index of the first byte at or after `start` that is not visible ASCII or a space
    /// (0x20-0x7E) or that is `"` or a backslash: where a structured-field string's plain run
    /// ends.
    static func endOfPlainString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var index = start
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // High bits of the bytes below 0x20, at or above 0x7F, equal to `"` or a backslash;
            // the lowest one marks the first such byte exactly (borrows only mark later bytes).
            var stop = ((word &- 0x2020_2020_2020_2020) & ~word) | word
            let delete = word ^ 0x7F7F_7F7F_7F7F_7F7F
            stop |= (delete &- 0x0101_0101_0101_0101) & ~delete
            let quote = word ^ 0x2222_2222_2222_2222
            stop |= (quote &- 0x0101_0101_0101_0101) & ~quote
            let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
            stop |= (backslash &- 0x0101_0101_0101_0101) & ~backslash
            stop &= 0x8080_8080_8080_8080
            if stop != 0 { return index + stop.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count {
            let byte = base[index]
            guard byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") else {
                return index
            }
            index += 1
        }
        return index
    }

    /// Appends `bytes` lowercased (ASCII).
    @inline(__always)
    static func appendLowercased(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var upper = false
        for byte in bytes { upper = upper || (byte >= 0x41 && byte <= 0x5A) }
        guard upper else {
            output.append(contentsOf: bytes)
            return
        }
        for byte in bytes { output.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
    }

    /// The length of `authority` without the scheme's default port (`:443` for https, `:80` for
    /// http), looking at the bytes only.
    static func lengthWithoutDefaultPort(_ authority: UnsafeBufferPointer<UInt8>, scheme: UnsafeBufferPointer<UInt8>)
        -> Int
    {
        let port: StaticString
        if equalsIgnoringCase(scheme, "https") {
            port = ":443"
        } else if equalsIgnoringCase(scheme, "http") {
            port = ":80"
        } else {
            return authority.count
        }
        let portLength = port.utf8CodeUnitCount
        guard authority.count > portLength else { return authority.count }
        let start = authority.count - portLength
        for index in 0..<portLength where authority[start + index] != port.utf8Start[index] { return authority.count }
        // "[::1]:443" has its port after the bracket; a bare IPv6 address has no port.
        var colons = 0
        for index in 0..<start where authority[index] == UInt8(ascii: ":") { colons += 1 }
        if colons > 0 && authority[start - 1] != UInt8(ascii: "]") { return authority.count }
        return start
    }

    /// Whether the bytes equal a lowercase ASCII literal, ignoring case.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        for index in 0..<bytes.count {
            var byte = bytes[index]
            if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
            if byte != literal.utf8Start[index] { return false }
        }
        return true
    }
}

extension ByteText {
    /// Whether the bytes equal `text`'s UTF-8 bytes.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        guard bytes.count == text.utf8.count else { return false }
        return withBytes(text) { other in
            for index in 0..<bytes.count where bytes[index] != other[index] { return false }
            return true
        }
    }

    /// Whether the bytes equal a literal.
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        for index in 0..<bytes.count where bytes[index] != literal.utf8Start[index] { return false }
        return true
    }
}
