/// The query-parameter handling of RFC 9421 §2.2.8: `application/x-www-form-urlencoded`
/// parsing, then percent-encoding of every byte except ASCII letters, digits, `*`, `-`, `.`
/// and `_` (a space becomes `%20`).
enum FormURLEncoding {
    /// Decodes one name or value: `+` is a space, `%XX` a byte; a `%` not followed by two hex
    /// digits stays as it is (as the URL standard's percent-decode does).
    static func decode(_ text: Substring.UTF8View) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "+") {
                output.append(0x20)
            } else if byte == UInt8(ascii: "%"),
                let first = text.index(index, offsetBy: 1, limitedBy: text.endIndex), first < text.endIndex,
                let second = text.index(first, offsetBy: 1, limitedBy: text.endIndex), second < text.endIndex,
                let high = hexValue(text[first]), let low = hexValue(text[second])
            {
                output.append(high << 4 | low)
                index = second
            } else {
                output.append(byte)
            }
            index = text.index(after: index)
        }
        return output
    }

    /// Appends the encoding of `bytes`.
    static func encode(_ bytes: some Sequence<UInt8>, into output: inout [UInt8]) {
        let hex: StaticString = "0123456789ABCDEF"
        for byte in bytes {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                hex.withUTF8Buffer { digits in
                    output.append(digits[Int(byte >> 4)])
                    output.append(digits[Int(byte & 0x0F)])
                }
            }
        }
    }

    /// The encoding of a string's UTF-8 bytes.
    static func encode(_ text: String) -> String {
        var output: [UInt8] = []
        encode(text.utf8, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        SFCharacters.isLetter(byte) || SFCharacters.isDigit(byte) || byte == UInt8(ascii: "*")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
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
