/// Base64 (RFC 4648) over bytes, without going through Foundation strings.
package enum Base64 {
    private static let standard: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlSafe: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Maps an ASCII byte to its 6-bit value in either alphabet (`0xFF` for none; `+`/`-` and
    /// `/`/`_` are told apart by the caller).
    private static let decoding: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in standard.enumerated() { table[Int(byte)] = UInt8(index) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    /// Appends the encoding of `bytes` to `output`.
    package static func encode(
        _ bytes: UnsafeRawBufferPointer,
        into output: inout [UInt8],
        urlSafe useURLAlphabet: Bool = false,
        padding: Bool = true
    ) {
        let alphabet = useURLAlphabet ? urlSafe : standard
        output.reserveCapacity(output.count + (bytes.count + 2) / 3 * 4)
        alphabet.withUnsafeBufferPointer { table in
            var index = 0
            let count = bytes.count
            while index + 3 <= count {
                let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                output.append(table[Int(value >> 18 & 63)])
                output.append(table[Int(value >> 12 & 63)])
                output.append(table[Int(value >> 6 & 63)])
                output.append(table[Int(value & 63)])
                index += 3
            }
            let remaining = count - index
            if remaining == 1 {
                let value = UInt32(bytes[index]) << 16
                output.append(table[Int(value >> 18 & 63)])
                output.append(table[Int(value >> 12 & 63)])
                if padding { output.append(UInt8(ascii: "=")); output.append(UInt8(ascii: "=")) }
            } else if remaining == 2 {
                let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                output.append(table[Int(value >> 18 & 63)])
                output.append(table[Int(value >> 12 & 63)])
                output.append(table[Int(value >> 6 & 63)])
                if padding { output.append(UInt8(ascii: "=")) }
            }
        }
    }

    /// The standard encoding of `bytes`, padded.
    package static func encodedString(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        let array = Array(bytes)
        array.withUnsafeBytes { encode($0, into: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64 text, or returns `nil` for anything that is not base64.
    ///
    /// Padding may be left out, as RFC 8941 §4.2.7 asks of parsers; when present it must be the
    /// right amount and end the text. Non-zero pad bits are accepted (also per RFC 8941).
    /// - Parameters:
    ///   - text: The encoded bytes.
    ///   - urlSafe: Whether to read the URL-safe alphabet (`-`, `_`) instead of `+`, `/`.
    package static func decode(_ text: UnsafeBufferPointer<UInt8>, urlSafe useURLAlphabet: Bool = false) -> [UInt8]? {
        var end = text.count
        var padding = 0
        while end > 0 && text[end - 1] == UInt8(ascii: "=") {
            end -= 1
            padding += 1
        }
        if padding > 0 && (padding > 2 || text.count % 4 != 0) { return nil }
        if end % 4 == 1 { return nil }
        if padding > 0 && (end + padding) % 4 != 0 { return nil }
        let otherPlus = useURLAlphabet ? UInt8(ascii: "+") : UInt8(ascii: "-")
        let otherSlash = useURLAlphabet ? UInt8(ascii: "/") : UInt8(ascii: "_")
        var output: [UInt8] = []
        output.reserveCapacity(end * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var valid = true
        decoding.withUnsafeBufferPointer { table in
            for index in 0..<end {
                let byte = text[index]
                let value = table[Int(byte)]
                if value == 0xFF || byte == otherPlus || byte == otherSlash {
                    valid = false
                    return
                }
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                }
            }
        }
        return valid ? output : nil
    }

    /// Decodes base64 text given as a string.
    package static func decode(_ text: String, urlSafe useURLAlphabet: Bool = false) -> [UInt8]? {
        var copy = text
        return copy.withUTF8 { decode($0, urlSafe: useURLAlphabet) }
    }
}
