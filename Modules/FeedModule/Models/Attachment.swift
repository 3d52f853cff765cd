/// A file attached to a post, as the upstream describes it (its bytes are not part of a post).
public struct Attachment: Codable, Sendable, Equatable {
    /// The attachment's id.
    public var id: String
    /// The file name it was uploaded with.
    public var fileName: String
    /// Its media type.
    public var contentType: String
    /// Its size in bytes.
    public var byteCount: Int

    /// Creates an attachment description.
    public init(id: String, fileName: String, contentType: String, byteCount: Int) {
        self.id = id
        self.fileName = fileName
        self.contentType = contentType
        self.byteCount = byteCount
    }
}
