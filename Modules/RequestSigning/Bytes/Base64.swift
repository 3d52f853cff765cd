/// Base64 (RFC 4648) over bytes, without going through Foundation strings.
package enum Base64 {
    private static let standard: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    private static let urlSafe: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    /// The 6-bit value of an ASCII byte in either alphabet, or 0xFF.
    @inline(__always)
    private static func value(of byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte &- UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte &- UInt8(ascii: "a") &+ 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0") &+ 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: 0xFF
        }
    }

    /// Appends the encoding of `bytes` to `output`.
    package static func encode(
        _ bytes: UnsafeRawBufferPointer,
        into output: inout [UInt8],
        urlSafe useURLAlphabet: Bool = false,
        padding: Bool = true
    ) {
        let length = encodedLength(bytes.count, padding: padding)
        guard length > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { encoded in
            let written = encode(bytes, writingTo: encoded.baseAddress!, urlSafe: useURLAlphabet, padding: padding)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: encoded[..<written]))
        }
    }

    /// The length of the encoding of `count` bytes.
    static func encodedLength(_ count: Int, padding: Bool = true) -> Int {
        let remaining = count % 3
        return count / 3 * 4 + (remaining == 0 ? 0 : (padding ? 4 : remaining + 1))
    }

    /// Encodes `bytes` into `output` (at least ``encodedLength(_:padding:)`` bytes); returns the
    /// length written.
    static func encode(
        _ bytes: UnsafeRawBufferPointer,
        writingTo output: UnsafeMutablePointer<UInt8>,
        urlSafe useURLAlphabet: Bool = false,
        padding: Bool = true
    ) -> Int {
        let full = bytes.count / 3
        let remaining = bytes.count - full * 3
        let length = encodedLength(bytes.count, padding: padding)
        let table = (useURLAlphabet ? urlSafe : standard).utf8Start
        var input = 0
        var position = 0
        for _ in 0..<full {
            let value = UInt32(bytes[input]) << 16 | UInt32(bytes[input + 1]) << 8 | UInt32(bytes[input + 2])
            output[position] = table[Int(value >> 18 & 63)]
            output[position + 1] = table[Int(value >> 12 & 63)]
            output[position + 2] = table[Int(value >> 6 & 63)]
            output[position + 3] = table[Int(value & 63)]
            input += 3
            position += 4
        }
        if remaining > 0 {
            var value = UInt32(bytes[input]) << 16
            if remaining == 2 { value |= UInt32(bytes[input + 1]) << 8 }
            output[position] = table[Int(value >> 18 & 63)]
            output[position + 1] = table[Int(value >> 12 & 63)]
            position += 2
            if remaining == 2 {
                output[position] = table[Int(value >> 6 & 63)]
                position += 1
            }
            while padding && position < length {
                output[position] = UInt8(ascii: "=")
                position += 1
            }
        }
        return length
    }

    /// A string of `prefix`, the encoding of `bytes`, and `suffix`, built in place.
    static func string(prefix: [UInt8], encoding bytes: UnsafeRawBufferPointer, suffix: UInt8) -> String {
        prefix.withUnsafeBufferPointer { string(prefix: $0, separator: nil, encoding: bytes, suffix: suffix) }
    }

    /// A string of `prefix`, `=:`, the encoding of `bytes`, and `:`: a structured-field
    /// dictionary member holding a byte sequence, built in place.
    static func member(_ key: String, encoding bytes: UnsafeRawBufferPointer) -> String {
        ByteText.withBytes(key) {
            string(prefix: $0, separator: UInt8(ascii: "="), encoding: bytes, suffix: UInt8(ascii: ":"))
        }
    }

    /// `prefix`, then `separator` and `:` when a separator is given, the encoding of `bytes`,
    /// and `suffix`, built in place.
    private static func string(
        prefix: UnsafeBufferPointer<UInt8>,
        separator: UInt8?,
        encoding bytes: UnsafeRawBufferPointer,
        suffix: UInt8
    ) -> String {
        let head = prefix.count + (separator == nil ? 0 : 2)
        let length = head + encodedLength(bytes.count) + 1
        return String(unsafeUninitializedCapacity: length) { buffer in
            let base = buffer.baseAddress!
            if let start = prefix.baseAddress { base.update(from: start, count: prefix.count) }
            if let separator {
                base[prefix.count] = separator
                base[prefix.count + 1] = UInt8(ascii: ":")
            }
            let written = encode(bytes, writingTo: base + head)
            base[head + written] = suffix
            return head + written + 1
        }
    }

    /// Decodes base64 text, or returns `nil` for anything that is not base64.
    ///
    /// Padding may be left out, as RFC 8941 §4.2.7 asks of parsers; when present it must be the
    /// right amount and end the text. Non-zero pad bits are accepted (also per RFC 8941).
    /// - Parameters:
    ///   - text: The encoded bytes.
    ///   - urlSafe: Whether to read the URL-safe alphabet (`-`, `_`) instead of `+`, `/`.
    package static func decode(_ text: UnsafeBufferPointer<UInt8>, urlSafe useURLAlphabet: Bool = false) -> [UInt8]? {
        guard let length = decodedLength(text, urlSafe: useURLAlphabet) else { return nil }
        return [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            count = decode(text, into: UnsafeMutableRawBufferPointer(buffer), urlSafe: useURLAlphabet) ?? 0
        }
    }

    /// The number of bytes `text` decodes to, or `nil` when it is not base64 (the same rules as
    /// ``decode(_:urlSafe:)``).
    package static func decodedLength(_ text: UnsafeBufferPointer<UInt8>, urlSafe useURLAlphabet: Bool = false) -> Int?
    {
        var end = text.count
        var padding = 0
        while end > 0 && text[end - 1] == UInt8(ascii: "=") {
            end -= 1
            padding += 1
        }
        if padding > 0 && (padding > 2 || text.count % 4 != 0) { return nil }
        if end % 4 == 1 { return nil }
        let foreignPlus = useURLAlphabet ? UInt8(ascii: "+") : UInt8(ascii: "-")
        let foreignSlash = useURLAlphabet ? UInt8(ascii: "/") : UInt8(ascii: "_")
        let valid = sextets.withUnsafeBufferPointer { table in
            var ok = true
            for index in 0..<end {
                let byte = text[index]
                ok = ok && table[Int(byte)] != 0xFF && byte != foreignPlus && byte != foreignSlash
            }
            return ok
        }
        guard valid else { return nil }
        return end / 4 * 3 + (end % 4 == 0 ? 0 : end % 4 - 1)
    }

    /// Decodes into `output` (at least ``decodedLength(_:urlSafe:)`` bytes); returns the length,
    /// or `nil` when the text is not base64 or does not fit.
    package static func decode(
        _ text: UnsafeBufferPointer<UInt8>,
        into output: UnsafeMutableRawBufferPointer,
        urlSafe useURLAlphabet: Bool = false
    ) -> Int? {
        guard let length = decodedLength(text, urlSafe: useURLAlphabet), length <= output.count else { return nil }
        return decodeValidated(text, into: output)
    }

    /// The 6-bit value of each byte in either alphabet, or 0xFF.
    private static let sextets: [UInt8] = (0...255).map { value(of: UInt8($0)) }

    /// Decodes text already checked with ``decodedLength(_:urlSafe:)`` into `output`, which must
    /// be large enough; returns the length.
    package static func decodeValidated(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer)
        -> Int
    {
        var end = text.count
        while end > 0 && text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        return sextets.withUnsafeBufferPointer { table in
            var input = 0
            var written = 0
            while input + 4 <= end {
                let value =
                    UInt32(table[Int(text[input])]) << 18 | UInt32(table[Int(text[input + 1])]) << 12
                    | UInt32(table[Int(text[input + 2])]) << 6 | UInt32(table[Int(text[input + 3])])
                output[written] = UInt8(truncatingIfNeeded: value >> 16)
                output[written + 1] = UInt8(truncatingIfNeeded: value >> 8)
                output[written + 2] = UInt8(truncatingIfNeeded: value)
                input += 4
                written += 3
            }
            let remaining = end - input
            if remaining >= 2 {
                var value = UInt32(table[Int(text[input])]) << 18 | UInt32(table[Int(text[input + 1])]) << 12
                if remaining == 3 { value |= UInt32(table[Int(text[input + 2])]) << 6 }
                output[written] = UInt8(truncatingIfNeeded: value >> 16)
                written += 1
                if remaining == 3 {
                    output[written] = UInt8(truncatingIfNeeded: value >> 8)
                    written += 1
                }
            }
            return written
        }
    }

    /// The 6-bit value of each byte of the standard alphabet, or 0xFF (also for `-` and `_`).
    private static let standardSextets: [UInt8] = (0...255).map { byte in
        byte == Int(UInt8(ascii: "-")) || byte == Int(UInt8(ascii: "_")) ? 0xFF : value(of: UInt8(byte))
    }

    /// Validates and decodes padded standard base64 in one pass: the length a multiple of 4, at
    /// most two `=` at the end. Returns the decoded length, or `nil` for anything else (which
    /// ``decode(_:into:urlSafe:)`` may still accept) or when `output` is too small.
    static func decodeCanonical(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer)
        -> Int?
    {
        let count = text.count
        guard count >= 4, count % 4 == 0 else { return nil }
        var padding = 0
        if text[count - 1] == UInt8(ascii: "=") { padding = text[count - 2] == UInt8(ascii: "=") ? 2 : 1 }
        let length = count / 4 * 3 - padding
        guard length <= output.count else { return nil }
        return standardSextets.withUnsafeBufferPointer { table -> Int? in
            var invalid: UInt8 = 0
            var input = 0
            var written = 0
            let full = padding == 0 ? count : count - 4
            while input < full {
                let a = table[Int(text[input])]
                let b = table[Int(text[input + 1])]
                let c = table[Int(text[input + 2])]
                let d = table[Int(text[input + 3])]
                invalid |= (a | b | c | d) & 0xC0
                let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                output[written] = UInt8(truncatingIfNeeded: value >> 16)
                output[written + 1] = UInt8(truncatingIfNeeded: value >> 8)
                output[written + 2] = UInt8(truncatingIfNeeded: value)
                input += 4
                written += 3
            }
            if padding > 0 {
                let a = table[Int(text[input])]
                let b = table[Int(text[input + 1])]
                let c = padding == 1 ? table[Int(text[input + 2])] : 0
                invalid |= (a | b | c) & 0xC0
                let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                output[written] = UInt8(truncatingIfNeeded: value >> 16)
                written += 1
                if padding == 1 {
                    output[written] = UInt8(truncatingIfNeeded: value >> 8)
                    written += 1
                }
            }
            return invalid == 0 ? written : nil
        }
    }
}
