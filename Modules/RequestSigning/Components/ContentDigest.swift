#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// RFC 9530 `Content-Digest`: produce the field for a body, and check a received field
/// against the body.
public enum ContentDigest {
    /// The outcome of checking a `Content-Digest` field against a body.
    public enum Verdict: Sendable, Equatable {
        /// Every member with a supported algorithm matches the body.
        case valid
        /// The member for this algorithm does not match the body.
        case mismatch(DigestAlgorithm)
        /// The field names no algorithm this library supports (`sha-256`, `sha-512`).
        case noSupportedAlgorithm
        /// The field is not a dictionary of byte sequences; the text says what is wrong.
        case malformed(String)
    }

    /// The field value for a body, for example `sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:`.
    /// - Throws: Nothing with the two supported digests (their OpenSSL calls cannot fail); the
    ///   signature keeps ``SigningError`` for digests that could.
    public static func fieldValue(
        for body: some Collection<UInt8>,
        algorithm: DigestAlgorithm = .sha256
    ) throws(SigningError) -> String {
        if let value = body.withContiguousStorageIfAvailable({
            fieldValue(body: UnsafeRawBufferPointer($0), algorithm: algorithm)
        }) {
            return value
        }
        return Array(body).withUnsafeBytes { fieldValue(body: $0, algorithm: algorithm) }
    }

    /// The field value for a body, hashed into a stack buffer and written straight into the
    /// string (no intermediate array).
    static func fieldValue(body: UnsafeRawBufferPointer, algorithm: DigestAlgorithm) -> String {
        withUnsafeTemporaryAllocation(byteCount: SHA2.maximumLength, alignment: 8) { digest in
            algorithm.hash(body, into: digest.baseAddress!)
            return Base64.member(
                algorithm.rawValue, encoding: UnsafeRawBufferPointer(rebasing: digest[..<algorithm.digestLength]))
        }
    }

    /// Checks a `Content-Digest` field value against the body it arrived with.
    ///
    /// Members with algorithms other than `sha-256` and `sha-512` are ignored; every supported
    /// member must match.
    /// - Throws: Nothing with the two supported digests (their OpenSSL calls cannot fail); the
    ///   signature keeps ``SigningError`` for digests that could.
    public static func check(
        fieldValue: String,
        body: some Collection<UInt8>
    ) throws(SigningError) -> Verdict {
        if let verdict = body.withContiguousStorageIfAvailable({ bytes in
            Result { () throws(SigningError) in try check(fieldValue: fieldValue, bytes: UnsafeRawBufferPointer(bytes))
            }
        }) {
            return try verdict.get()
        }
        return try Array(body).withUnsafeBytes { bytes in
            Result { () throws(SigningError) in try check(fieldValue: fieldValue, bytes: bytes) }
        }.get()
    }

    /// ``check(fieldValue:body:)`` over the body's bytes.
    static func check(fieldValue: String, bytes body: UnsafeRawBufferPointer) throws(SigningError) -> Verdict {
        // The one-member form a signer writes is checked where it lies; any other is parsed.
        if let verdict = ByteText.withBytes(fieldValue, { exactVerdict($0, body: body) }) { return verdict }
        let dictionary: SFDictionary
        do {
            dictionary = try SFParser.parseDictionary(fieldValue)
        } catch {
            return .malformed("Content-Digest is not a structured-field dictionary: \(error)")
        }
        var checked = 0
        for entry in dictionary.entries {
            guard let algorithm = DigestAlgorithm(rawValue: entry.key) else { continue }
            guard case .item(let item) = entry.member, case .byteSequence(let expected) = item.bareItem else {
                return .malformed("the Content-Digest member \"\(entry.key)\" is not a byte sequence")
            }
            let actual = try algorithm.hash(body)
            guard actual == expected else { return .mismatch(algorithm) }
            checked += 1
        }
        return checked > 0 ? .valid : .noSupportedAlgorithm
    }

    /// The verdict for a field of exactly one member, `sha-256=:base64:` or `sha-512=:base64:`
    /// with padded standard base64; `nil` for any other shape.
    private static func exactVerdict(_ field: UnsafeBufferPointer<UInt8>, body: UnsafeRawBufferPointer) -> Verdict? {
        let count = field.count
        guard count >= 13, count <= 9 + 88 + 1, field[7] == UInt8(ascii: "="), field[8] == UInt8(ascii: ":"),
            field[count - 1] == UInt8(ascii: ":")
        else { return nil }
        let name = UnsafeBufferPointer(rebasing: field[0..<7])
        let algorithm: DigestAlgorithm
        if ByteText.equals(name, "sha-256" as StaticString) {
            algorithm = .sha256
        } else if ByteText.equals(name, "sha-512" as StaticString) {
            algorithm = .sha512
        } else {
            return nil
        }
        return withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { buffer -> Verdict? in
            let expected = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<64])
            let actual = UnsafeMutableRawBufferPointer(rebasing: buffer[64..<128])
            guard
                let length = Base64.decodeCanonical(UnsafeBufferPointer(rebasing: field[9..<count - 1]), into: expected)
            else { return nil }
            algorithm.hash(body, into: actual.baseAddress!)
            let same =
                length == algorithm.digestLength && memcmp(expected.baseAddress!, actual.baseAddress!, length) == 0
            return same ? .valid : .mismatch(algorithm)
        }
    }
}
