public import Foundation

/// A file to attach to a new post: sent as one `attachment` part of a `multipart/form-data` body.
public struct AttachmentUpload: Sendable, Equatable {
    /// The file's name, without directories (1-255 bytes of UTF-8).
    public var fileName: String
    /// The file's media type, `type/subtype` (`image/png`).
    public var contentType: String
    /// The file's bytes (1 byte to 5 MiB).
    public var data: Data

    /// Creates an attachment.
    public init(fileName: String, contentType: String, data: Data) {
        self.fileName = fileName
        self.contentType = contentType
        self.data = data
    }
}
