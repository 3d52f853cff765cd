import Foundation
import Synchronization

/// The default ``PostStore``: everything in memory behind one lock.
final class InMemoryPostStore: PostStore {
    private struct State {
        var posts: [String: PostRecord] = [:]
        var nextPost = 1
        var nextAttachment = 1
    }

    private let state = Mutex(State())

    /// Creates an empty store.
    init() {}

    /// Post ids are `p` and six digits, so that the id order is the creation order.
    private static func postID(_ number: Int) -> String {
        let digits = String(number)
        return "p" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    func post(_ id: String) -> PostRecord? {
        state.withLock { $0.posts[id] }
    }

    func timeline(authors: Set<String>, olderThan position: (createdAt: Int64, postID: String)?, limit: Int)
        -> (posts: [PostRecord], hasMore: Bool)
    {
        state.withLock { state in
            var matching = state.posts.values.filter { post in
                authors.contains(post.authorID) && (position.map { post.isOlder(than: $0) } ?? true)
            }
            matching.sort { first, second in
                first.createdAtSeconds != second.createdAtSeconds
                    ? first.createdAtSeconds > second.createdAtSeconds
                    : second.id.utf8.lexicographicallyPrecedes(first.id.utf8)
            }
            return (Array(matching.prefix(limit)), matching.count > limit)
        }
    }

    func create(authorID: String, text: String, attachments: [AttachmentUploadRecord], at date: Date) -> PostRecord {
        let seconds = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        return state.withLock { state in
            let id = Self.postID(state.nextPost)
            state.nextPost += 1
            var records: [AttachmentRecord] = []
            for upload in attachments {
                records.append(
                    AttachmentRecord(
                        id: "a\(state.nextAttachment)", fileName: upload.fileName, contentType: upload.contentType,
                        byteCount: upload.byteCount))
                state.nextAttachment += 1
            }
            let post = PostRecord(
                id: id, authorID: authorID, text: text, createdAt: seconds, likedBy: [], attachments: records)
            state.posts[id] = post
            return post
        }
    }

    func like(post id: String, by user: String) -> PostRecord? {
        state.withLock { state in
            guard state.posts[id] != nil else { return nil }
            state.posts[id]?.likedBy.insert(user)
            return state.posts[id]
        }
    }
}
