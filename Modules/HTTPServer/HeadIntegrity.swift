import Glibc

/// Detects request heads that libmicrohttpd 0.9.75 shortened silently.
///
/// libmicrohttpd parses the head in place: it replaces separators (spaces of the request line, the
/// colon of each field, each CR and LF) with NUL bytes and hands out pointers into its read
/// buffer, taking every string up to the first NUL. A NUL sent *inside* a value (or request-target)
/// therefore hides the rest of that line. Walking the pointers in order, the bytes between the end
/// of one element and the start of the next may only be those replaced separators (NUL, SP, HT):
/// anything else was hidden. The same walk rejects obs-folded lines, which libmicrohttpd moves
/// elsewhere in its pool (RFC 9112 allows answering them with 400).
enum HeadIntegrity {
    /// The longest run of separator bytes accepted between two elements.
    static let maxGap = 64

    /// Whether `from..<to` is 1 to ``maxGap`` bytes, all NUL, SP or HT.
    static func isSeparator(from: UnsafePointer<CChar>, to: UnsafePointer<CChar>) -> Bool {
        let count = from.distance(to: to)
        guard count >= 1 && count <= maxGap else { return false }
        for offset in 0..<count {
            let byte = from[offset]
            if byte != 0 && byte != 0x20 && byte != 0x09 { return false }
        }
        return true
    }

    /// Checks the request line; returns where the header fields should start, or `nil` when the
    /// line is broken.
    static func checkRequestLine(
        method: UnsafePointer<CChar>?,
        url: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        targetLength: Int
    ) -> UnsafePointer<CChar>? {
        guard let method, let url, let version else { return nil }
        let methodEnd = method + strlen(method)
        guard isSeparator(from: methodEnd, to: url) else { return nil }
        let versionLength = strlen(version)
        guard versionLength > 0 else { return nil }
        guard isSeparator(from: url + targetLength, to: version) else { return nil }
        return version + versionLength
    }

    /// Checks the element that follows `cursor` (a field starting at `key`).
    static func checkField(after cursor: UnsafePointer<CChar>, key: UnsafePointer<CChar>) -> Bool {
        // One line ending (CRLF or LF) separates the two; no trailing bytes are trimmed by 0.9.75.
        let count = cursor.distance(to: key)
        return count >= 1 && count <= 2 && isSeparator(from: cursor, to: key)
    }

    /// Checks the end of the head: after the last element's terminating NUL comes the empty line,
    /// whose first byte is a NUL too (CR or LF replaced). A visible byte there was hidden by a NUL.
    static func checkEnd(_ cursor: UnsafePointer<CChar>) -> Bool {
        cursor[0] == 0 && cursor[1] == 0
    }
}
