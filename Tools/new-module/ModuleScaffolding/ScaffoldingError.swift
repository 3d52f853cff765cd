/// Why `new-module` refused to run or could not finish, with a message a person can act on.
public struct ScaffoldingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it was. A struct of constants, so new codes do not break users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The command line is wrong: unknown option, missing value, missing name.
        public static let usage = Code("usage")
        /// The module name is not an UpperCamelCase Swift identifier.
        public static let invalidName = Code("invalid name")
        /// The name clashes with an existing target, directory or public type.
        public static let nameClash = Code("name clash")
        /// A base URL is not absolute `http` or `https`.
        public static let invalidBaseURL = Code("invalid base URL")
        /// The key id has characters a key id may not have.
        public static let invalidKeyID = Code("invalid key id")
        /// The repository is missing a file the generator edits, or the file is not in the
        /// expected shape.
        public static let repository = Code("repository")
        /// Writing the files failed; what had been written was removed again.
        public static let writeFailed = Code("write failed")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure it was.
    public var code: Code
    /// What went wrong and what to do about it.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The process exit status for this error (sysexits.h): 64 for usage errors and refusals of
    /// the input, 66 when the repository's files are missing or unrecognised, 74 for write failures.
    public var exitCode: Int32 {
        switch code {
        case .repository: 66
        case .writeFailed: 74
        default: 64
        }
    }

    /// `new-module: <message>`.
    public var description: String { "new-module: \(message)" }
}
