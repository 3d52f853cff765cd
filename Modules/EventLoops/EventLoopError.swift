/// Why an ``EventLoopGroup`` could not be made.
public struct EventLoopError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the loop.
    public let description: String

    /// Creates an error with its description.
    public init(_ description: String) { self.description = description }
}
