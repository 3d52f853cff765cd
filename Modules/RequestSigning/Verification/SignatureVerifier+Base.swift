import Foundation
import ServiceCore

extension SignatureVerifier {
    /// Rebuilds the signature base of a read member into a stack buffer and hands it to `body`.
    /// - Throws: ``SignatureVerificationError`` when a covered component is missing or invalid.
    func withBase<R>(
        _ member: Member,
        _ message: SignableMessage,
        keyID: String?,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) throws(SignatureVerificationError) -> R {
        switch SignatureBase.write(member, of: message, body) {
        case .success(let result): return result
        case .failure(let error): throw baseFailure(error, label: member.label, keyID: keyID)
        }
    }

    private func baseFailure(_ error: SigningError, label: String, keyID: String?) -> SignatureVerificationError {
        switch error.code {
        case .missingComponent: SignatureVerificationError(.missingComponent, error.message, label: label, keyID: keyID)
        case .cryptoFailure: SignatureVerificationError(.cryptoFailure, error.message, label: label, keyID: keyID)
        default: SignatureVerificationError(.malformedSignatureInput, error.message, label: label, keyID: keyID)
        }
    }

    /// Decodes the `Signature` member with the label into `output` and returns its length (which
    /// may exceed `output`'s size: then only its start is written, and it matches no MAC).
    ///
    /// The exact form `label=:base64:` is decoded where it lies; any other spelling is parsed.
    func signatureBytes(
        _ field: String?,
        label: String,
        into output: UnsafeMutableRawBufferPointer
    ) throws(SignatureVerificationError) -> Int {
        guard let field else {
            throw SignatureVerificationError(.missingSignature, "the message has no Signature field", label: label)
        }
        let maximumLength = configuration.fieldLimits.maximumLength
        let exact = ByteText.withBytes(field) { bytes -> Int? in
            let labelCount = label.utf8.count
            let count = bytes.count
            guard count <= maximumLength, count >= labelCount + 3 + 4, count <= labelCount + 3 + 88,
                ByteText.equals(UnsafeBufferPointer(rebasing: bytes[..<labelCount]), label),
                bytes[labelCount] == UInt8(ascii: "="), bytes[labelCount + 1] == UInt8(ascii: ":"),
                bytes[count - 1] == UInt8(ascii: ":")
            else { return nil }
            return Base64.decodeCanonical(
                UnsafeBufferPointer(rebasing: bytes[labelCount + 2..<count - 1]), into: output)
        }
        if let exact { return exact }
        let signatures: SFDictionary
        do {
            signatures = try SFParser.parseDictionary(field, limits: configuration.fieldLimits)
        } catch {
            throw SignatureVerificationError(
                .malformedSignature, "Signature is not a structured-field dictionary: \(error)", label: label)
        }
        guard let member = signatures[label] else {
            throw SignatureVerificationError(
                .missingSignature, "Signature has no member labelled \"\(label)\"", label: label)
        }
        guard case .item(let item) = member, case .byteSequence(let signature) = item.bareItem else {
            throw SignatureVerificationError(
                .malformedSignature, "the Signature member \"\(label)\" is not a byte sequence", label: label)
        }
        signature.withUnsafeBytes { bytes in
            output.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(output.count)))
        }
        return signature.count
    }

    /// Checks `Content-Digest` against the body.
    func checkDigest(_ field: String, body: Data?, label: String, keyID: String) throws(SignatureVerificationError) {
        let verdict: ContentDigest.Verdict
        do {
            verdict = try (body ?? Data()).withUnsafeBytes { bytes in
                Result { () throws(SigningError) in try ContentDigest.check(fieldValue: field, bytes: bytes) }
            }.get()
        } catch {
            throw failure(.cryptoFailure, error.message, label: label, keyID: keyID)
        }
        switch verdict {
        case .valid:
            break
        case .mismatch(let algorithm):
            throw failure(
                .digestMismatch, "the body does not match its \(algorithm) Content-Digest", label: label, keyID: keyID)
        case .noSupportedAlgorithm:
            throw failure(
                .digestMismatch, "Content-Digest names no supported algorithm (sha-256, sha-512)", label: label,
                keyID: keyID)
        case .malformed(let reason):
            throw failure(.digestMismatch, reason, label: label, keyID: keyID)
        }
    }
}
