/// Character classes of RFC 8941 and RFC 9110, on ASCII bytes.
enum SFCharacters {
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isLowercaseLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }

    static func isLetter(_ byte: UInt8) -> Bool { isLowercaseLetter(byte) || (byte >= 0x41 && byte <= 0x5A) }

    /// `lcalpha / "*"`.
    static func isKeyStart(_ byte: UInt8) -> Bool { isLowercaseLetter(byte) || byte == UInt8(ascii: "*") }

    /// `lcalpha / DIGIT / "_" / "-" / "." / "*"`.
    static func isKeyCharacter(_ byte: UInt8) -> Bool {
        isLowercaseLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "*")
    }

    /// RFC 9110 `tchar`.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        if isLetter(byte) || isDigit(byte) { return true }
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"),
            UInt8(ascii: ":"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// RFC 9110 `tchar` without the `:` and `/` that sf-token also allows.
    static func isFieldNameCharacter(_ byte: UInt8) -> Bool {
        isTokenCharacter(byte) && byte != UInt8(ascii: ":") && byte != UInt8(ascii: "/")
    }

    static func isBase64Character(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "=")
    }
}
