import Foundation
import HTTPTypes
public import ServiceCore

extension FeedService {
    /// The longest post text, in Unicode scalars (code points).
    public static let maximumTextLength = 500
    /// The most attachments a post may have.
    public static let maximumAttachments = 4
    /// The largest attachment, in bytes (5 MiB).
    public static let maximumAttachmentBytes = 5 * 1024 * 1024
    /// The longest attachment file name, in UTF-8 bytes.
    public static let maximumFileNameBytes = 255

    /// Checks the case's inputs; `ServiceClient` calls it before it builds any request.
    ///
    /// Identifiers must be 1-128 bytes of UTF-8 without control characters and not `.` or `..`;
    /// a cursor, when given, 1-512 bytes without control characters; `limit` 1...100. Post text
    /// must have something besides white space, at most 500 characters, and no control characters
    /// but line breaks and tabs. At most 4 attachments, each with 1 byte to 5 MiB of data, a file
    /// name of 1-255 bytes without control characters, `/` or `\`, and a media type `type/subtype`.
    /// - Throws: ``ServiceError`` with code `invalidRequest`, naming the field and the rule.
    public func validate() throws(ServiceError) {
        let check = InputRules(for: self)
        switch self {
        case .timeline(let user, let cursor, let limit):
            try check.identifier(user, named: "user")
            try check.cursor(cursor)
            try check.limit(limit)
        case .post(let id):
            try check.identifier(id, named: "id")
        case .like(let post, let user):
            try check.identifier(post, named: "post")
            try check.identifier(user, named: "user")
        case .createPost(let author, let text, let attachments):
            try check.identifier(author, named: "author")
            try Self.validate(text: text, check)
            guard attachments.count <= Self.maximumAttachments else {
                throw check.failure("attachments must be at most \(Self.maximumAttachments), got \(attachments.count)")
            }
            for (index, attachment) in attachments.enumerated() {
                try Self.validate(attachment, field: "attachments[\(index)]", check)
            }
        }
    }

    private static func validate(text: String, _ check: InputRules) throws(ServiceError) {
        guard text.contains(where: { !$0.isWhitespace }) else { throw check.failure("text must not be empty") }
        // Counted in Unicode scalars, as JSON Schema's maxLength and most clients count.
        let length = text.unicodeScalars.count
        guard length <= maximumTextLength else {
            throw check.failure("text must be at most \(maximumTextLength) characters, got \(length)")
        }
        guard !InputRules.hasControlCharacters(text, allowing: ["\n", "\r", "\t"]) else {
            throw check.failure("text must not contain control characters other than line breaks and tabs")
        }
    }

    private static func validate(_ attachment: AttachmentUpload, field: String, _ check: InputRules)
        throws(ServiceError)
    {
        let name = attachment.fileName
        guard !name.isEmpty else { throw check.failure("\(field).fileName must not be empty") }
        guard name.utf8.count <= maximumFileNameBytes else {
            throw check.failure("\(field).fileName must be at most \(maximumFileNameBytes) bytes of UTF-8")
        }
        guard !InputRules.hasControlCharacters(name), !name.contains("/"), !name.contains("\\") else {
            throw check.failure("\(field).fileName must not contain control characters, \"/\" or \"\\\"")
        }
        guard isMediaType(attachment.contentType) else {
            throw check.failure("\(field).contentType must be a media type such as image/png")
        }
        guard !attachment.data.isEmpty else { throw check.failure("\(field).data must not be empty") }
        guard attachment.data.count <= maximumAttachmentBytes else {
            throw check.failure(
                "\(field).data must be at most \(maximumAttachmentBytes) bytes, got \(attachment.data.count)")
        }
    }

    /// Whether `text` is `type/subtype`, both RFC 9110 tokens, without parameters.
    private static func isMediaType(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { $0.utf8.count <= 127 && HTTPToken.isToken($0) }
    }
}
