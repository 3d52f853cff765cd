/// RFC 9110 `token` (section 5.6.2): what a method, a field name and each part of a media type
/// are made of. One table for the server, the transports, the sandbox and the tools.
package enum HTTPToken {
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
    package static func isTokenCharacter(_ byte: UInt8) -> Bool { table[Int(byte)] }

    /// Whether `text` is a non-empty `token`.
    package static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }
}
