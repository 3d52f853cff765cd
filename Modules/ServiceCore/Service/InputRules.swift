/// The input checks every feature module shares: identifiers, opaque strings, cursors and page
/// sizes, each failing with a ``ServiceError`` of code
/// ``ServiceError/Code-swift.struct/invalidRequest`` that names the module and the case.
///
/// Use it in a service's ``Service/validate()``:
///
/// ```swift
/// public func validate() throws(ServiceError) {
///     let check = InputRules(for: self)
///     switch self {
///     case .followers(let id, let cursor, let limit):
///         try check.identifier(id, named: "id")
///         try check.cursor(cursor)
///         try check.limit(limit)
///     }
/// }
/// ```
///
/// Messages name the field and the rule, never the offending value: it may be a token, or text
/// meant for no log. For a module's own rules, throw ``failure(_:)`` with such a message.
public struct InputRules: Sendable {
    /// The module named in errors.
    public let module: String
    /// The case named in errors (worked out only when an error is made: naming a case takes
    /// reflection, and valid input needs no name).
    public var operation: String { name() }
    private let name: @Sendable () -> String

    /// The longest identifier, in UTF-8 bytes.
    public static let maximumIdentifierBytes = 128
    /// The longest cursor, in UTF-8 bytes.
    public static let maximumCursorBytes = 512
    /// The page sizes an upstream accepts.
    public static let pageLimits = 1...100

    /// Creates the checks for one module and case.
    /// - Parameters:
    ///   - module: The module named in errors, for example `UserModule`.
    ///   - operation: The case named in errors, for example `profile`.
    public init(module: String, operation: String) {
        self.module = module
        self.name = { operation }
    }

    /// Creates the checks for a service case: its ``Service/moduleName`` and ``Service/operationName``.
    public init<S: Service>(for service: S) {
        self.module = S.moduleName
        self.name = { service.operationName }
    }

    /// An `invalidRequest` error with `message`, for a module's own rules.
    /// - Parameter message: The field and the rule it breaks, without the value.
    public func failure(_ message: String) -> ServiceError {
        ServiceError(code: .invalidRequest, module: module, operation: operation, message: message)
    }

    /// An identifier used as a path segment: 1-128 UTF-8 bytes, no control characters, not `.`
    /// or `..` (which URL normalisation would remove from the path).
    /// - Parameters:
    ///   - value: The identifier.
    ///   - field: Its name in messages.
    /// - Throws: ``ServiceError`` with code `invalidRequest`.
    public func identifier(_ value: String, named field: String) throws(ServiceError) {
        if let violation = Self.identifierViolation(value, named: field) { throw failure(violation) }
    }

    /// The rule an identifier breaks (see ``identifier(_:named:)``), as a message naming the
    /// field, or `nil` when it is valid: for readers that report errors their own way, such as
    /// an upstream answering a problem document.
    /// - Parameters:
    ///   - value: The identifier.
    ///   - field: Its name in the message.
    public static func identifierViolation(_ value: String, named field: String) -> String? {
        guard !value.isEmpty else { return "\(field) must not be empty" }
        guard value.utf8.count <= maximumIdentifierBytes else {
            return "\(field) must be at most \(maximumIdentifierBytes) bytes of UTF-8"
        }
        guard !hasControlCharacters(value) else { return "\(field) must not contain control characters" }
        guard value != ".", value != ".." else { return "\(field) must not be \".\" or \"..\"" }
        return nil
    }

    /// An opaque string sent in a body or query: 1-`maximumBytes` UTF-8 bytes, no control characters.
    /// - Parameters:
    ///   - value: The string.
    ///   - field: Its name in messages.
    ///   - maximumBytes: The longest accepted, in UTF-8 bytes.
    /// - Throws: ``ServiceError`` with code `invalidRequest`.
    public func opaque(_ value: String, named field: String, maximumBytes: Int) throws(ServiceError) {
        guard !value.isEmpty else { throw failure("\(field) must not be empty") }
        guard value.utf8.count <= maximumBytes else {
            throw failure("\(field) must be at most \(maximumBytes) bytes of UTF-8")
        }
        guard !Self.hasControlCharacters(value) else { throw failure("\(field) must not contain control characters") }
    }

    /// A pagination cursor named `cursor`, when given: as ``opaque(_:named:maximumBytes:)`` with 512 bytes.
    /// - Throws: ``ServiceError`` with code `invalidRequest`.
    public func cursor(_ value: String?) throws(ServiceError) {
        guard let value else { return }
        try opaque(value, named: "cursor", maximumBytes: Self.maximumCursorBytes)
    }

    /// A page size named `limit`, in 1...100; the message holds the number given.
    /// - Throws: ``ServiceError`` with code `invalidRequest`.
    public func limit(_ value: Int) throws(ServiceError) {
        guard Self.pageLimits.contains(value) else {
            throw failure(
                "limit must be between \(Self.pageLimits.lowerBound) and \(Self.pageLimits.upperBound), got \(value)"
            )
        }
    }

    /// Whether the text holds a Unicode control character (general category Cc) other than
    /// those `allowed`.
    /// - Parameters:
    ///   - value: The text.
    ///   - allowed: Control characters to accept, such as `["\n", "\t"]`.
    public static func hasControlCharacters(_ value: String, allowing allowed: Set<Unicode.Scalar> = []) -> Bool {
        value.unicodeScalars.contains { isControl($0) && !allowed.contains($0) }
    }

    /// Whether the scalar is in general category Cc: U+0000-U+001F and U+007F-U+009F, a set
    /// Unicode's stability policy fixes, so a range test gives the answer of the property
    /// tables without looking them up.
    @inline(__always)
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }
}
