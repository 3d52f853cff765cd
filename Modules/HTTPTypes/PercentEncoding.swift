/// RFC 3986 percent-encoding for the parts of a URL the core builds, and the decoding of the
/// parts a server reads.
package enum PercentEncoding {
    /// Bytes kept as is in a path segment or query component: RFC 3986 unreserved
    /// (`A-Z a-z 0-9 - . _ ~`).
    private static let unreserved = ByteSet(low: 0x03FF_6000_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
    /// Bytes kept as is in a form component (WHATWG URL standard): `A-Z a-z 0-9 * - . _`.
    private static let formSafe = ByteSet(low: 0x03FF_6400_0000_0000, high: 0x07FF_FFFE_87FF_FFFE)
    /// Bytes allowed in an encoded path: unreserved, sub-delims, `:`, `@`, `/` (and `%` escapes).
    private static let pathAllowed = ByteSet(low: 0x2FFF_FFD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF)
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// The member lists the mask constants were made from, for the tests.
    package static let maskSources: [(name: String, members: String)] = [
        ("unreserved", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"),
        ("formSafe", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._"),
        ("pathAllowed", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/"),
    ]

    /// Whether each mask constant holds exactly the members of its source list.
    package static var masksMatchTheirSources: Bool {
        let constants = ["unreserved": unreserved, "formSafe": formSafe, "pathAllowed": pathAllowed]
        return maskSources.allSatisfy { constants[$0.name] == ByteSet($0.members) }
    }

    /// Encodes a string for use as one path segment: everything but the unreserved set is
    /// encoded, so `/`, `?`, `#`, `%`, spaces and non-ASCII text can never change the path's shape.
    ///
    /// The dot segments `.` and `..` are encoded too (`%2E`, `%2E%2E`): left as they are, URL
    /// normalisation would remove them and change the path.
    package static func pathSegment(_ string: String) -> String {
        var encoded = ""
        appendPathSegment(string, to: &encoded)
        return encoded
    }

    /// Appends `string` encoded as ``pathSegment(_:)`` to `text`, without an intermediate
    /// string when it needs no encoding (the common case).
    package static func appendPathSegment(_ string: String, to text: inout String) {
        let utf8 = string.utf8
        if utf8.count <= 2, utf8.allSatisfy({ $0 == UInt8(ascii: ".") }), !utf8.isEmpty {
            text += utf8.count == 1 ? "%2E" : "%2E%2E"
        } else if isClean(string, keeping: unreserved) {
            text += string
        } else {
            text += encode(string, keeping: unreserved, spaceAsPlus: false)
        }
    }

    /// Appends a query name or value to `bytes`: everything but the unreserved set is encoded, so
    /// `&`, `=`, `+`, `#` and spaces always are (a space becomes `%20`, never `+`).
    package static func appendQueryComponent(_ string: String, to bytes: inout [UInt8]) {
        append(string, keeping: unreserved, spaceAsPlus: false, to: &bytes)
    }

    /// Encodes a name or value of `application/x-www-form-urlencoded` (WHATWG URL standard):
    /// a space becomes `+`, and everything but `A-Z a-z 0-9 * - . _` is percent-encoded.
    package static func formComponent(_ string: String) -> String {
        encode(string, keeping: formSafe, spaceAsPlus: true)
    }

    /// Whether the path (already encoded) contains only characters RFC 3986 allows in a path.
    package static func isValidEncodedPath(_ path: String) -> Bool {
        if let valid = path.utf8.withContiguousStorageIfAvailable(isValidEncodedPath) { return valid }
        return Array(path.utf8).withUnsafeBufferPointer(isValidEncodedPath)
    }

    private static func isValidEncodedPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
            } else if pathAllowed.contains(byte) {
                index += 1
            } else {
                return false
            }
        }
        return true
    }

    private static func isClean(_ string: String, keeping keep: ByteSet) -> Bool {
        if let clean = string.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(keep.contains) }) { return clean }
        return string.utf8.allSatisfy(keep.contains)
    }

    private static func encode(_ string: String, keeping keep: ByteSet, spaceAsPlus: Bool) -> String {
        if isClean(string, keeping: keep) { return string }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count * 3)
        append(string, keeping: keep, spaceAsPlus: spaceAsPlus, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func append(_ string: String, keeping keep: ByteSet, spaceAsPlus: Bool, to bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { source in
            // Runs of kept bytes are copied at once; each other byte becomes `+` or `%XX`.
            var start = 0
            for index in source.indices where !keep.contains(source[index]) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
                start = index + 1
                let byte = source[index]
                if spaceAsPlus && byte == 0x20 {
                    bytes.append(UInt8(ascii: "+"))
                } else {
                    bytes.append(UInt8(ascii: "%"))
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<source.count]))
        }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        hexValue(byte) != nil
    }

    /// Decodes the `%HH` escapes of a path segment or a query name or value (RFC 3986 §2.1);
    /// `+` is kept as it is. `nil` for a malformed escape or bytes that are not UTF-8.
    package static func decode(_ segment: Substring) -> String? {
        decode(segment.utf8)
    }

    /// Decodes the `%HH` escapes in `utf8`; `nil` for a malformed escape or bytes that are not UTF-8.
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

/// A set of ASCII bytes as two 64-bit masks: membership is two shifts and an `and`.
///
/// The constants above are written as masks so they are initialised statically, with no lazy
/// global access on the hot path; `init(_:)` builds one from its members (the tests check that
/// each constant matches its member list).
struct ByteSet: Equatable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    init(_ members: String) {
        for byte in members.utf8 {
            if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
        }
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? (low >> UInt64(byte)) & 1 == 1 : byte < 128 && (high >> UInt64(byte &- 64)) & 1 == 1
    }
}
