/// What a run of the tool produced: the exit status and the bytes for standard output and
/// standard error.
public struct ToolResult: Sendable, Equatable {
    /// The process exit status (see ``ExitCode``).
    public var exitCode: Int32
    /// The bytes for standard output.
    public var output: [UInt8]
    /// The text for standard error.
    public var error: String

    /// Creates a result.
    public init(exitCode: Int32, output: [UInt8] = [], error: String = "") {
        self.exitCode = exitCode
        self.output = output
        self.error = error
    }

    /// Standard output as text.
    public var outputText: String { String(decoding: output, as: UTF8.self) }
}
