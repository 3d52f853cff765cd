/// A command line the tool cannot run: the message says what is wrong.
public struct UsageError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The subcommand the error belongs to, or `nil` for the top level.
    public var subcommand: String?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String, subcommand: String? = nil) {
        self.message = message
        self.subcommand = subcommand
    }

    /// `error: message`.
    public var description: String { "error: \(message)" }
}
