/// RFC 9110 `token` (section 5.6.2): what a method, a field name and each part of a media type
/// are made of. One definition for the server, the transports, the sandbox and the tools.
package enum HTTPToken {
    /// Whether `byte` is a `tchar`: a digit, a letter or one of ``!#$%&'*+-.^_`|~``.
    ///
    /// One bit per ASCII byte in two 64-bit masks (bytes 0-63 and 64-127), so the test is a shift
    /// and needs no table lookup; bytes from 128 up are never `tchar`.
    @inlinable
    package static func isTokenCharacter(_ byte: UInt8) -> Bool {
        // Bytes 0-63: ! # $ % & ' * + - . and 0-9. Bytes 64-127: A-Z ^ _ ` a-z | ~.
        let mask: UInt64 = byte < 64 ? 0x03ff_6cfa_0000_0000 : 0x57ff_ffff_c7ff_fffe
        return byte < 128 && (mask &>> UInt64(byte & 63)) & 1 != 0
    }

    /// Whether `bytes` is a non-empty `token`.
    @inlinable
    package static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        for byte in bytes where !isTokenCharacter(byte) { return false }
        return true
    }

    /// Whether `text` is a non-empty `token`; scans the string's UTF-8 storage in place.
    @inlinable
    package static func isToken(_ text: String) -> Bool {
        if let result = text.utf8.withContiguousStorageIfAvailable({ isToken($0) }) { return result }
        return isToken(text[...])
    }

    /// Whether `text` is a non-empty `token`.
    package static func isToken(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }
}
