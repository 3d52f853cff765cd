/// A key file that could not be turned into a ``SigningKey``.
///
/// Messages name the file and what is wrong with it, never its content.
public struct KeyLoadingError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was. A struct of constants, so new codes do not break users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// No file exists at the path.
        public static let missing = Code("missing key file")
        /// The file exists but cannot be read (permissions, a directory, an I/O error, too large).
        public static let unreadable = Code("unreadable key file")
        /// The file holds nothing but whitespace.
        public static let empty = Code("empty key file")
        /// The content is not one line of base64.
        public static let notBase64 = Code("key file is not base64")
        /// The decoded key is shorter than ``SigningKey/minimumSecretLength``.
        public static let tooShort = Code("key too short")
        /// The key identifier or tag is not valid, or OpenSSL refused the key.
        public static let invalidKey = Code("invalid key")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure it was.
    public var code: Code
    /// The path of the file.
    public var path: String
    /// A description for a person.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `code: path: message`.
    public var description: String { "\(code): \(path): \(message)" }
}
