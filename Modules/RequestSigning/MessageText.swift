/// Text handling shared by the signature base and message parsing.
enum MessageText {
    /// `value` without leading and trailing spaces and tabs.
    static func trimmed(_ value: String) -> String {
        let utf8 = value.utf8
        guard let first = utf8.first, let last = utf8.last,
            first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09
        else { return value }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end && (utf8[start] == 0x20 || utf8[start] == 0x09) { start = utf8.index(after: start) }
        while end > start {
            let before = utf8.index(before: end)
            guard utf8[before] == 0x20 || utf8[before] == 0x09 else { break }
            end = before
        }
        return String(value[start..<end])
    }

    /// The authority with the host lowercased and the scheme's default port removed.
    static func normalizedAuthority(_ authority: String, scheme: String) -> String {
        let trimmedAuthority = trimmed(authority)
        var text = ComponentIdentifier.lowercasedASCII(trimmedAuthority)
        let defaultPort: String? =
            switch ComponentIdentifier.lowercasedASCII(scheme) {
            case "https": ":443"
            case "http": ":80"
            default: nil
            }
        if let defaultPort, text.hasSuffix(defaultPort) {
            let host = text.dropLast(defaultPort.count)
            // "[::1]:443" has its port after the bracket; a bare IPv6 address has no port.
            if !host.contains(":") || host.hasSuffix("]") { text = String(host) }
        }
        return text
    }
}
