import Foundation
import ServiceCore

/// Checks a case's inputs before anything is sent, throwing a ``ServiceError`` with code
/// `invalidRequest` and a message that names the field and the rule.
///
/// Messages never contain the offending value: it may be a token, or text meant for no log.
struct InputValidator {
    /// The module named in errors.
    let module: String
    /// The case named in errors.
    let operation: String

    /// The longest identifier, in UTF-8 bytes.
    static let maximumIdentifierBytes = 128
    /// The longest cursor, in UTF-8 bytes.
    static let maximumCursorBytes = 512
    /// The page sizes an upstream accepts.
    static let pageLimits = 1...100

    /// An `invalidRequest` error with `message`.
    func fail(_ message: String) -> ServiceError {
        ServiceError(code: .invalidRequest, module: module, operation: operation, message: message)
    }

    /// An identifier used as a path segment: 1-128 UTF-8 bytes, no control characters, not `.`
    /// or `..` (which URL normalisation would remove from the path).
    func identifier(_ value: String, named field: String) throws(ServiceError) {
        guard !value.isEmpty else { throw fail("\(field) must not be empty") }
        guard value.utf8.count <= Self.maximumIdentifierBytes else {
            throw fail("\(field) must be at most \(Self.maximumIdentifierBytes) bytes of UTF-8")
        }
        guard !Self.hasControlCharacters(value) else { throw fail("\(field) must not contain control characters") }
        guard value != ".", value != ".." else { throw fail("\(field) must not be \".\" or \"..\"") }
    }

    /// An opaque string sent in a body or query: 1-`maximumBytes` UTF-8 bytes, no control characters.
    func opaque(_ value: String, named field: String, maximumBytes: Int) throws(ServiceError) {
        guard !value.isEmpty else { throw fail("\(field) must not be empty") }
        guard value.utf8.count <= maximumBytes else {
            throw fail("\(field) must be at most \(maximumBytes) bytes of UTF-8")
        }
        guard !Self.hasControlCharacters(value) else { throw fail("\(field) must not contain control characters") }
    }

    /// A pagination cursor, when given: as ``opaque(_:named:maximumBytes:)`` with 512 bytes.
    func cursor(_ value: String?) throws(ServiceError) {
        guard let value else { return }
        try opaque(value, named: "cursor", maximumBytes: Self.maximumCursorBytes)
    }

    /// A page size in 1...100.
    func limit(_ value: Int) throws(ServiceError) {
        guard Self.pageLimits.contains(value) else {
            throw fail(
                "limit must be between \(Self.pageLimits.lowerBound) and \(Self.pageLimits.upperBound), got \(value)"
            )
        }
    }

    /// Whether the text holds a Unicode control character (general category Cc).
    static func hasControlCharacters(_ value: String, allowing allowed: Set<Unicode.Scalar> = []) -> Bool {
        value.unicodeScalars.contains { $0.properties.generalCategory == .control && !allowed.contains($0) }
    }
}
