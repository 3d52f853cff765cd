import ServiceCore

/// The contract's rules for identifiers, texts and keys (`docs/upstreams.md` and its domain
/// pages `docs/upstreams-user.md`, `docs/upstreams-feed.md`, `docs/upstreams-payment.md`),
/// checked again by the upstream whatever the client checked; each failure is a 400 ``Problem``
/// naming the field.
///
/// The rules the clients share (identifiers, cursors, page sizes, control characters) are
/// ServiceCore's ``ServiceCore/InputRules``, answered here as problems; the rest are the
/// upstream's own.
enum InputRules {
    /// The longest identifier, in UTF-8 bytes: the same limit the clients check.
    static let maximumIdentifierBytes = ServiceCore.InputRules.maximumIdentifierBytes
    /// The longest pagination cursor, in UTF-8 bytes: the same limit the clients check.
    static let maximumCursorBytes = ServiceCore.InputRules.maximumCursorBytes
    /// The longest bearer token, in UTF-8 bytes.
    static let maximumTokenBytes = 4096
    /// The longest post text, in characters.
    static let maximumTextLength = 500
    /// The longest memo, in characters.
    static let maximumMemoLength = 140
    /// The longest idempotency key, in characters.
    static let maximumIdempotencyKeyLength = 255
    /// The largest amount, in minor units: 2^53 - 1.
    static let maximumAmountMinor: Int64 = 9_007_199_254_740_991
    /// The page sizes accepted, and the size when none is given.
    static let pageLimits: ClosedRange<Int> = ServiceCore.InputRules.pageLimits
    static let defaultPageLimit = 20

    /// Whether the text holds a Unicode control character (general category Cc) not in `allowed`.
    static func hasControlCharacters(_ text: String, allowing allowed: Set<Unicode.Scalar> = []) -> Bool {
        ServiceCore.InputRules.hasControlCharacters(text, allowing: allowed)
    }

    /// An identifier: 1-128 bytes of UTF-8, no control characters, not `.` or `..`.
    static func identifier(_ value: String, named field: String) throws(Problem) {
        if let violation = ServiceCore.InputRules.identifierViolation(value, named: field) {
            throw Problem(.invalidRequest, violation)
        }
    }

    /// An amount in minor units: 1 to 2^53 - 1.
    static func amountMinor(_ value: Int64, named field: String) throws(Problem) -> Int64 {
        guard (1...maximumAmountMinor).contains(value) else {
            throw Problem(.invalidRequest, "\(field) must be between 1 and \(maximumAmountMinor), got \(value)")
        }
        return value
    }

    /// The page size from the query: absent is 20; else an integer in 1...100.
    static func pageLimit(_ text: String?) throws(Problem) -> Int {
        guard let text else { return defaultPageLimit }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let value = Int(text),
            pageLimits.contains(value)
        else {
            throw Problem(
                .invalidRequest,
                "limit must be an integer between \(pageLimits.lowerBound) and \(pageLimits.upperBound)")
        }
        return value
    }

    /// A post's text: something besides white space, at most 500 Unicode scalars, no control
    /// characters but line feed, carriage return and tab.
    static func postText(_ text: String) throws(Problem) {
        guard text.contains(where: { !$0.isWhitespace }) else {
            throw Problem(.invalidRequest, "text must not be empty or only white space")
        }
        guard text.unicodeScalars.count <= maximumTextLength else {
            throw Problem(
                .invalidRequest,
                "text must be at most \(maximumTextLength) characters, got \(text.unicodeScalars.count)")
        }
        guard !hasControlCharacters(text, allowing: ["\n", "\r", "\t"]) else {
            throw Problem(.invalidRequest, "text must not contain control characters other than line breaks and tabs")
        }
    }

    /// A memo: 1-140 Unicode scalars without control characters.
    static func memo(_ memo: String) throws(Problem) {
        guard !memo.isEmpty else { throw Problem(.invalidRequest, "memo must not be empty; leave it out instead") }
        guard memo.unicodeScalars.count <= maximumMemoLength else {
            throw Problem(
                .invalidRequest,
                "memo must be at most \(maximumMemoLength) characters, got \(memo.unicodeScalars.count)")
        }
        guard !hasControlCharacters(memo) else {
            throw Problem(.invalidRequest, "memo must not contain control characters")
        }
    }

    /// An attachment's file name: 1-255 bytes of UTF-8, no control characters, `/` or `\`.
    static func fileName(_ name: String, field: String) throws(Problem) {
        guard !name.isEmpty, name.utf8.count <= 255 else {
            throw Problem(.invalidRequest, "\(field) file name must be 1-255 bytes of UTF-8")
        }
        guard !hasControlCharacters(name), !name.contains("/"), !name.contains("\\") else {
            throw Problem(.invalidRequest, "\(field) file name must not contain control characters, \"/\" or \"\\\"")
        }
    }

    /// The `Idempotency-Key` field: 1-255 visible ASCII characters; anything else (absent
    /// included) is 400 `idempotency_key_missing`.
    static func idempotencyKey(_ values: [String]) throws(Problem) -> String {
        guard values.count <= 1 else {
            throw Problem(.idempotencyKeyMissing, "send exactly one Idempotency-Key field, not \(values.count)")
        }
        guard let key = values.first, !key.isEmpty else {
            throw Problem(.idempotencyKeyMissing, "this request moves money and needs an Idempotency-Key field")
        }
        guard key.utf8.count <= maximumIdempotencyKeyLength, key.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else {
            throw Problem(
                .idempotencyKeyMissing,
                "the Idempotency-Key must be 1-\(maximumIdempotencyKeyLength) visible ASCII characters (! to ~)")
        }
        return key
    }
}
