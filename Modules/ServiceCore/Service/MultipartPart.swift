public import Foundation

/// One part of a `multipart/form-data` body (RFC 7578): a field or a file.
public struct MultipartPart: Sendable, Hashable {
    /// The form field name.
    public var name: String
    /// The file name, for file parts.
    public var fileName: String?
    /// The part's content type; file parts default to `application/octet-stream`.
    public var contentType: String?
    /// The part's bytes.
    public var data: Data

    /// Creates a part.
    public init(name: String, fileName: String? = nil, contentType: String? = nil, data: Data) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
        self.data = data
    }

    /// A text field.
    public static func field(_ name: String, _ value: String) -> MultipartPart {
        MultipartPart(name: name, data: Data(value.utf8))
    }

    /// A file part.
    public static func file(
        _ name: String,
        fileName: String,
        contentType: String = "application/octet-stream",
        data: Data
    ) -> MultipartPart {
        MultipartPart(name: name, fileName: fileName, contentType: contentType, data: data)
    }
}
