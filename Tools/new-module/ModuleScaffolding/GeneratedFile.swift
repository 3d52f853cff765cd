/// A file the generator writes: a path relative to the repository root and its full text.
public struct GeneratedFile: Sendable, Equatable {
    /// The path relative to the repository root, with `/` separators.
    public var path: String
    /// The file's text.
    public var contents: String

    /// Creates a file.
    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}
