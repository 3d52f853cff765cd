/// Percent-decoding (RFC 3986 section 2.1) of a path segment or a query name or value: `%HH`
/// escapes are decoded, `+` is kept as it is.
package enum PercentDecoding {
    /// Decodes `%HH` escapes in `segment`; `nil` for a malformed escape or bytes that are not UTF-8.
    package static func decode(_ segment: Substring) -> String? {
        decode(segment.utf8)
    }

    /// Decodes `%HH` escapes in `utf8`; `nil` for a malformed escape or bytes that are not UTF-8.
    package static func decode(_ utf8: Substring.UTF8View) -> String? {
        guard utf8.contains(UInt8(ascii: "%")) else { return String(Substring(utf8)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first < utf8.endIndex else { return nil }
                let second = utf8.index(after: first)
                guard second < utf8.endIndex, let high = hexValue(utf8[first]), let low = hexValue(utf8[second]) else {
                    return nil
                }
                bytes.append(high << 4 | low)
                index = utf8.index(after: second)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
