/// RFC 9110 `token` characters, the only ones allowed in a field name.
enum HeaderToken {
    private static let table: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Whether `byte` is a `tchar`.
    static func isTokenCharacter(_ byte: UInt8) -> Bool { table[Int(byte)] }
}
