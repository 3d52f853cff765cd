extension ModuleTemplate {
    /// `<Name>JSON.swift`: request bodies with sorted keys, RFC 3339 timestamps.
    static func json(_ spec: ModuleSpec) -> String {
        let name = spec.name
        return #"""
            import Foundation

            /// The module's JSON conventions: request bodies with sorted keys and no escaped slashes;
            /// timestamps as RFC 3339 text in UTC (`2026-03-01T12:00:00Z`).
            enum \#(name)JSON {
                /// Encodes request bodies: keys sorted, so the bytes are stable (and signable as sent).
                static let encoder: JSONEncoder = {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    return encoder
                }()

                /// Formats a timestamp: whole seconds, UTC, `Z`.
                static func format(_ date: Date) -> String {
                    date.formatted(.iso8601)
                }

                /// Parses an RFC 3339 timestamp (fractional seconds and offsets accepted), or `nil`.
                static func parse(_ text: String) -> Date? {
                    try? Date(text, strategy: .iso8601)
                }
            }

            extension KeyedDecodingContainer {
                /// Decodes an RFC 3339 timestamp string.
                func decodeTimestamp(forKey key: Key) throws -> Date {
                    let text = try decode(String.self, forKey: key)
                    guard let date = \#(name)JSON.parse(text) else {
                        throw DecodingError.dataCorruptedError(
                            forKey: key,
                            in: self,
                            debugDescription: "expected an RFC 3339 timestamp such as 2026-03-01T12:00:00Z"
                        )
                    }
                    return date
                }

                /// Decodes an RFC 3339 timestamp string that may be absent or `null`.
                func decodeTimestampIfPresent(forKey key: Key) throws -> Date? {
                    guard contains(key), try !decodeNil(forKey: key) else { return nil }
                    return try decodeTimestamp(forKey: key)
                }
            }

            extension KeyedEncodingContainer {
                /// Encodes a timestamp as RFC 3339 text.
                mutating func encodeTimestamp(_ date: Date, forKey key: Key) throws {
                    try encode(\#(name)JSON.format(date), forKey: key)
                }

                /// Encodes a timestamp as RFC 3339 text, or nothing when `nil`.
                mutating func encodeTimestampIfPresent(_ date: Date?, forKey key: Key) throws {
                    guard let date else { return }
                    try encodeTimestamp(date, forKey: key)
                }
            }

            """#
    }

    /// `InputValidator.swift`: the same checks in every feature module.
    static let inputValidator = #"""
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

        """#
}
