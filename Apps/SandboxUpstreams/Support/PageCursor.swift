import Foundation

/// The opaque cursors the sandbox issues for pages: where the previous page ended, bound to the
/// list it belongs to, as unpadded base64url text.
///
/// Keyset cursors (not offsets), so a page boundary stays put when items are added in front.
enum PageCursor: Equatable {
    /// Followers of `user` with a follow sequence number below `sequence`.
    case followers(user: String, sequence: Int64)
    /// Posts of `user`'s timeline older than (`createdAt`, `postID`).
    case timeline(user: String, createdAt: Int64, postID: String)

    /// The cursor's text.
    var encoded: String {
        switch self {
        case .followers(let user, let sequence):
            "f1." + Self.base64URL(Data(user.utf8)) + "." + String(sequence)
        case .timeline(let user, let createdAt, let postID):
            "t1." + Self.base64URL(Data(user.utf8)) + "." + String(createdAt) + "." + Self.base64URL(Data(postID.utf8))
        }
    }

    /// Reads a cursor this upstream issued for `user`'s list of the given kind.
    /// - Throws: 400 `invalid_cursor` for anything else.
    static func decodeFollowers(_ text: String, user: String) throws(Problem) -> Int64 {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= InputRules.maximumCursorBytes, parts.count == 3, parts[0] == "f1",
            decodeText(parts[1]) == user, let sequence = Int64(parts[2]), sequence >= 0
        else { throw invalid }
        return sequence
    }

    /// Reads a timeline cursor this upstream issued for `user`.
    /// - Throws: 400 `invalid_cursor` for anything else.
    static func decodeTimeline(_ text: String, user: String) throws(Problem) -> (createdAt: Int64, postID: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= InputRules.maximumCursorBytes, parts.count == 4, parts[0] == "t1",
            decodeText(parts[1]) == user, let createdAt = Int64(parts[2]), let postID = decodeText(parts[3])
        else { throw invalid }
        return (createdAt, postID)
    }

    private static var invalid: Problem {
        Problem(.invalidCursor, "the cursor was not issued for this list; start again without a cursor")
    }

    private static func base64URL(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    private static func decodeText(_ part: Substring) -> String? {
        guard
            part.utf8.allSatisfy({ byte in
                MediaType.isTokenByte(byte) && byte != UInt8(ascii: "+") && byte != UInt8(ascii: "/")
            })
        else { return nil }
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return String(validating: data, as: UTF8.self)
    }
}
