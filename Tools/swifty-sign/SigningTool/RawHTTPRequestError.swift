/// Input that is not an HTTP/1.1 request the tool can read.
public struct RawHTTPRequestError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The line (from 1) where the problem was found, when there is one.
    public var line: Int?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String, line: Int? = nil) {
        self.message = message
        self.line = line
    }

    /// `line N: message`.
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}
