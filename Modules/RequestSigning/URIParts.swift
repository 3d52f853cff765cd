/// The parts of an absolute URI (`scheme://authority/path?query#fragment`), split without
/// decoding anything.
struct URIParts {
    /// The scheme, lowercased.
    var scheme: String
    /// The authority without user information.
    var authority: String
    /// The path as written (may be empty).
    var path: String
    /// The query without `?`, or `nil`.
    var query: String?

    /// Splits `text`, or returns `nil` when it does not start with `scheme://`.
    init?(_ text: String) {
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon > utf8.startIndex else { return nil }
        let schemeBytes = utf8[..<colon]
        guard let first = schemeBytes.first, SFCharacters.isLetter(first),
            schemeBytes.allSatisfy({
                SFCharacters.isLetter($0) || SFCharacters.isDigit($0) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            })
        else { return nil }
        let rest = utf8[utf8.index(after: colon)...]
        guard rest.starts(with: "//".utf8) else { return nil }
        let authorityStart = rest.index(rest.startIndex, offsetBy: 2)
        var authorityEnd = authorityStart
        while authorityEnd < utf8.endIndex {
            let byte = utf8[authorityEnd]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            authorityEnd = utf8.index(after: authorityEnd)
        }
        var authority = Substring(text[authorityStart..<authorityEnd])
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var end = utf8.endIndex
        if let hash = utf8[authorityEnd...].firstIndex(of: UInt8(ascii: "#")) { end = hash }
        let target = Substring(text[authorityEnd..<end])
        let split = SignableMessage.splitPathAndQuery(target)
        self.scheme = ComponentIdentifier.lowercasedASCII(String(text[..<colon]))
        self.authority = String(authority)
        self.path = split.path
        self.query = split.query
    }
}
