/// Reads the parts of a header field value: tokens, quoted strings and `; name=value`
/// parameters (RFC 9110 section 5.6), as `Content-Type` and `Content-Disposition` use them.
struct HeaderValueScanner {
    private let bytes: [UInt8]
    private var index = 0

    /// Starts at the beginning of `text`.
    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Skips spaces and tabs.
    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }

    /// Consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Reads a token, or `nil` when none is next.
    mutating func token() -> String? {
        let start = index
        while index < bytes.count, MediaType.isTokenByte(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// Reads `*( OWS ";" OWS name=value )` to the end: names lower-cased, values a token or a
    /// quoted string (with backslash escapes when `backslashEscapes`, else taken literally, as
    /// `multipart/form-data` writers do). `nil` when anything else follows or a value is not UTF-8.
    mutating func parameters(backslashEscapes: Bool) -> [(name: String, value: String)]? {
        var parameters: [(name: String, value: String)] = []
        while true {
            skipSpace()
            guard index < bytes.count else { return parameters }
            guard take(UInt8(ascii: ";")) else { return nil }
            skipSpace()
            if index == bytes.count { return parameters }
            guard let name = token(), take(UInt8(ascii: "=")) else { return nil }
            var value: [UInt8] = []
            if take(UInt8(ascii: "\"")) {
                var closed = false
                while index < bytes.count {
                    let byte = bytes[index]
                    index += 1
                    if byte == UInt8(ascii: "\"") {
                        closed = true
                        break
                    }
                    if byte == UInt8(ascii: "\\") && backslashEscapes {
                        guard index < bytes.count else { return nil }
                        value.append(bytes[index])
                        index += 1
                    } else {
                        value.append(byte)
                    }
                }
                guard closed else { return nil }
            } else {
                guard let plain = token() else { return nil }
                value = Array(plain.utf8)
            }
            guard let text = String(validating: value, as: UTF8.self) else { return nil }
            parameters.append((name.lowercased(), text))
        }
    }
}
