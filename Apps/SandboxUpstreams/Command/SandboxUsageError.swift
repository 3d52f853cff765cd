/// A command line `sandbox-upstreams` cannot run with; it exits 64 after printing it.
struct SandboxUsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, for a person.
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
