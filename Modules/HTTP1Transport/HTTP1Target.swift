import HTTPTypes
import ServiceCore

/// Where a request goes on the fast path: a host and port, the `Host` value and the request
/// target, read from the URL text the client built.
struct HTTP1Target {
    /// The upstream's host and port: the key of a connection pool.
    struct Origin: Hashable {
        /// A numeric IPv4 or IPv6 address (without brackets), or a host name to resolve.
        var host: String
        /// The TCP port.
        var port: UInt16
        /// Whether ``host`` is a numeric address.
        var isNumeric: Bool
    }

    /// Where to connect.
    var origin: Origin
    /// The URL's authority (`host[:port]`), sent as `Host`.
    var authority: Substring
    /// The path and query (`/` when the URL has no path), sent in the request line.
    var requestTarget: Substring

    /// Reads an absolute `http` URL whose host is a numeric address, `localhost` or a DNS name
    /// (letters, digits, `-`, `_` and dots), in one pass over its UTF-8 bytes.
    ///
    /// - Returns: `nil` for anything else (`https`, user information, a bad port, a percent-encoded
    ///   host, a query right after the authority): such a request goes to the fallback transport.
    static func parse(_ text: String) -> HTTP1Target? {
        var text = text
        let offsets = text.withUTF8 { scan($0) }
        guard let offsets else { return nil }
        let utf8 = text.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        let host: String =
            offsets.isLocalhost
            ? "127.0.0.1" : String(text[index(offsets.host.lowerBound)..<index(offsets.host.upperBound)])
        let authority = text[index(7)..<index(offsets.authorityEnd)]
        let target: Substring =
            offsets.targetEnd > offsets.authorityEnd
            ? text[index(offsets.authorityEnd)..<index(offsets.targetEnd)] : "/"
        let origin = Origin(host: host, port: offsets.port, isNumeric: offsets.isNumeric)
        return HTTP1Target(origin: origin, authority: authority, requestTarget: target)
    }

    /// Byte offsets found by ``scan(_:)``.
    private struct Offsets {
        var host: Range<Int>
        var isLocalhost: Bool
        var isNumeric: Bool
        var port: UInt16
        var authorityEnd: Int
        var targetEnd: Int
    }

    private static let slash = UInt8(ascii: "/")
    private static let colon = UInt8(ascii: ":")

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Offsets? {
        // "http://", the letters in any case (RFC 3986, section 3.1).
        guard bytes.count > 7,
            bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"),
            bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p"),
            bytes[4] == colon, bytes[5] == slash, bytes[6] == slash
        else { return nil }
        var end = 7
        while end < bytes.count {
            let byte = bytes[end]
            if byte == slash || byte == UInt8(ascii: "#") { break }
            // User information is the fallback's; a query right after the authority is rare.
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "@") { return nil }
            end += 1
        }
        // The host: a bracketed IPv6 address, or everything before the last colon.
        var host = 7..<end
        var portStart = end
        if end > 7, bytes[7] == UInt8(ascii: "[") {
            var close = 8
            while close < end, bytes[close] != UInt8(ascii: "]") { close += 1 }
            guard close < end else { return nil }
            host = 8..<close
            guard close + 1 == end || bytes[close + 1] == colon else { return nil }
            portStart = close + 1
            guard isIPv6(bytes, host) else { return nil }
        } else {
            var colonAt = end
            for offset in 7..<end where bytes[offset] == colon { colonAt = offset }
            host = 7..<colonAt
            portStart = colonAt
        }
        guard !host.isEmpty else { return nil }
        var port: UInt16 = 80
        if portStart < end {
            let digits = (portStart + 1)..<end
            guard !digits.isEmpty, digits.count <= 5 else { return nil }
            var value = 0
            for offset in digits {
                let digit = Int(bytes[offset]) - 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            guard value > 0, value <= Int(UInt16.max) else { return nil }
            port = UInt16(value)
        }
        let isLocalhost =
            bytes[7] != UInt8(ascii: "[")
            && ASCIICaseInsensitive.equal(
                UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[host])), "localhost")
        let isNumeric = isLocalhost || bytes[7] == UInt8(ascii: "[") || isIPv4(bytes, host)
        guard isNumeric || isName(bytes, host) else { return nil }
        var targetEnd = end
        while targetEnd < bytes.count, bytes[targetEnd] != UInt8(ascii: "#") { targetEnd += 1 }
        return Offsets(
            host: host, isLocalhost: isLocalhost, isNumeric: isNumeric, port: port, authorityEnd: end,
            targetEnd: targetEnd)
    }

    /// Digits and dots, not ending in a dot (`connect` checks the address exactly).
    private static func isIPv4(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        for offset in range where !(bytes[offset] >= 48 && bytes[offset] <= 57) && bytes[offset] != 46 { return false }
        return bytes[range.upperBound - 1] != 46
    }

    /// Letters, digits, `-`, `_` and dots, with a letter somewhere (so never a malformed IPv4).
    private static func isName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var letters = 0
        for offset in range {
            let byte = bytes[offset]
            let folded = byte | 0x20
            if folded >= 97 && folded <= 122 {
                letters += 1
            } else if !(byte >= 48 && byte <= 57) && byte != 45 && byte != 46 && byte != 95 {
                return false
            }
        }
        return letters > 0
    }

    /// Hex digits, colons and dots, with at least one colon.
    private static func isIPv6(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var colons = 0
        for offset in range {
            let byte = bytes[offset]
            if byte == colon {
                colons += 1
                continue
            }
            let folded = byte | 0x20
            guard (byte >= 48 && byte <= 57) || (folded >= 97 && folded <= 102) || byte == 46 else { return false }
        }
        return colons > 0
    }
}
