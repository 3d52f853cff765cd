public import Foundation
import ServiceCore

/// Checks RFC 9421 signatures made by ``RequestSigner`` (or any `hmac-sha256` signer).
///
/// For the signature with the configured label it checks, in order: the fields parse; the
/// `keyid` names a key in the ring (whose algorithm is used, never the message's `alg`, which
/// must agree when present); the `tag` is the key's module; `created` is not in the future
/// beyond the skew nor older than the maximum age, and `expires` has not passed; a nonce is
/// present; the required components are covered (and `content-digest` when there is a body);
/// the MAC over the rebuilt base matches (compared in constant time); the body matches
/// `Content-Digest`; and, last, the nonce has not been seen within its window. Each failure is
/// a ``SignatureVerificationError`` naming the check.
public struct SignatureVerifier: Sendable {
    /// Which signature to check and how strictly.
    public struct Configuration: Sendable {
        /// The label of the signature to check, `sig1` by default; `nil` checks the first one.
        public var label: String?
        /// Components every accepted signature must cover: `@method`, `@authority`, `@path`,
        /// `@query` by default.
        public var requiredComponents: [ComponentIdentifier]
        /// Whether a message with a body must cover `content-digest` (and so carry the field).
        public var requiresContentDigest: Bool
        /// The oldest `created` accepted, relative to now.
        public var maximumAge: Duration
        /// How far in the future `created` may be, and how long after `expires` a signature is
        /// still accepted, to allow for unsynchronised clocks.
        public var allowedClockSkew: Duration
        /// Whether a `nonce` is required (and checked against the replay guard).
        public var requiresNonce: Bool
        /// Whether `expires` is required.
        public var requiresExpires: Bool
        /// Size limits for parsing `Signature-Input`, `Signature` and `Content-Digest`.
        public var fieldLimits: SFParser.Limits

        /// Creates a configuration.
        public init(
            label: String? = "sig1",
            requiredComponents: [ComponentIdentifier] = [.method, .authority, .path, .query],
            requiresContentDigest: Bool = true,
            maximumAge: Duration = .seconds(300),
            allowedClockSkew: Duration = .seconds(30),
            requiresNonce: Bool = true,
            requiresExpires: Bool = false,
            fieldLimits: SFParser.Limits = .default
        ) {
            self.label = label
            self.requiredComponents = requiredComponents
            self.requiresContentDigest = requiresContentDigest
            self.maximumAge = maximumAge
            self.allowedClockSkew = allowedClockSkew
            self.requiresNonce = requiresNonce
            self.requiresExpires = requiresExpires
            self.fieldLimits = fieldLimits
        }
    }

    /// The trusted keys.
    public let keyRing: KeyRing
    /// The checks' settings.
    public let configuration: Configuration
    /// Where nonces are remembered.
    public let replayGuard: any ReplayGuard
    let clock: @Sendable () -> Date

    /// Creates a verifier.
    /// - Parameters:
    ///   - keyRing: The keys to accept.
    ///   - configuration: The checks' settings.
    ///   - replayGuard: Where nonces are remembered; a new ``InMemoryReplayGuard`` unless given.
    ///   - clock: The current time; the system clock unless given.
    public init(
        keyRing: KeyRing,
        configuration: Configuration = Configuration(),
        replayGuard: any ReplayGuard = InMemoryReplayGuard(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.keyRing = keyRing
        self.configuration = configuration
        self.replayGuard = replayGuard
        self.clock = clock
    }

    /// Verifies the message's signature and records its nonce.
    /// - Returns: What was verified: label, key, module, components, parameters.
    /// - Throws: ``SignatureVerificationError`` naming the failed check.
    public func verify(_ message: SignableMessage) async throws(SignatureVerificationError) -> VerifiedSignature {
        let now = clock()
        let checked = try check(message, now: now)
        if let nonce = checked.verified.parameters.nonce {
            let result = await replayGuard.checkAndRemember(
                nonce: nonce, keyID: checked.verified.keyID, expiresAt: checked.rememberUntil, now: now)
            switch result {
            case .fresh:
                break
            case .replayed:
                throw failure(
                    .replayedNonce, "the nonce was already used with this key; a request cannot be sent twice",
                    checked.verified)
            case .capacityExceeded:
                throw failure(
                    .replayGuardFull, "the replay guard is full of unexpired nonces and refuses new ones",
                    checked.verified)
            }
        }
        return checked.verified
    }

    /// The signature base the verifier rebuilds for the message's signature (for debugging a
    /// mismatch: compare it with the signer's).
    /// - Throws: ``SignatureVerificationError`` when the signature cannot be found or read.
    public func signatureBase(for message: SignableMessage) throws(SignatureVerificationError) -> SignatureBase {
        let input = try selectInput(in: message)
        do {
            return try SignatureBase(message: message, input: input)
        } catch {
            throw baseFailure(error, label: input.label, keyID: input.parameters.keyID)
        }
    }

    // MARK: Checks

    private struct Checked {
        var verified: VerifiedSignature
        var rememberUntil: Date
    }

    private func failure(
        _ code: SignatureVerificationError.Code,
        _ message: String,
        _ verified: VerifiedSignature
    ) -> SignatureVerificationError {
        SignatureVerificationError(code, message, label: verified.label, keyID: verified.keyID)
    }

    private func selectInput(in message: SignableMessage) throws(SignatureVerificationError) -> SignatureInput {
        let values = message.headers.values(for: "Signature-Input")
        guard !values.isEmpty else {
            throw SignatureVerificationError(.missingSignature, "the message has no Signature-Input field")
        }
        let inputs: [SignatureInput]
        do {
            inputs = try SignatureInput.parse(
                fieldValue: values.count == 1 ? values[0] : values.joined(separator: ", "),
                limits: configuration.fieldLimits)
        } catch {
            throw SignatureVerificationError(.malformedSignatureInput, error.message)
        }
        if let label = configuration.label {
            guard let input = inputs.first(where: { $0.label == label }) else {
                let present = inputs.isEmpty ? "none" : inputs.map(\.label).joined(separator: ", ")
                throw SignatureVerificationError(
                    .missingSignature, "Signature-Input has no signature labelled \"\(label)\" (labels: \(present))",
                    label: label)
            }
            return input
        }
        guard let first = inputs.first else {
            throw SignatureVerificationError(.missingSignature, "Signature-Input holds no signature")
        }
        return first
    }

    private func baseFailure(_ error: SigningError, label: String, keyID: String?) -> SignatureVerificationError {
        switch error.code {
        case .missingComponent: SignatureVerificationError(.missingComponent, error.message, label: label, keyID: keyID)
        case .cryptoFailure: SignatureVerificationError(.cryptoFailure, error.message, label: label, keyID: keyID)
        default: SignatureVerificationError(.malformedSignatureInput, error.message, label: label, keyID: keyID)
        }
    }

    private func check(_ message: SignableMessage, now: Date) throws(SignatureVerificationError) -> Checked {
        let input = try selectInput(in: message)
        let label = input.label
        let parameters = input.parameters

        // The Signature member.
        let signatureValues = message.headers.values(for: "Signature")
        guard !signatureValues.isEmpty else {
            throw SignatureVerificationError(.missingSignature, "the message has no Signature field", label: label)
        }
        let signatures: SFDictionary
        do {
            signatures = try SFParser.parseDictionary(
                signatureValues.count == 1 ? signatureValues[0] : signatureValues.joined(separator: ", "),
                limits: configuration.fieldLimits)
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

        // Key, algorithm, module.
        if let mistyped = parameters.mistypedParameter {
            throw SignatureVerificationError(
                .malformedSignatureInput, "the parameter \"\(mistyped)\" of \"\(label)\" has the wrong type",
                label: label)
        }
        guard let keyID = parameters.keyID else {
            throw SignatureVerificationError(.missingParameter, "the signature has no keyid", label: label)
        }
        guard let key = keyRing[keyID] else {
            throw SignatureVerificationError(
                .unknownKey, "no trusted key has the id \"\(keyID)\"", label: label, keyID: keyID)
        }
        let verified = VerifiedSignature(
            label: label, keyID: keyID, module: key.tag, components: input.components, parameters: parameters)
        if let algorithm = parameters.algorithm, algorithm != key.algorithm.rawValue {
            throw failure(
                .algorithmMismatch, "alg is \"\(algorithm)\" but key \"\(keyID)\" is \(key.algorithm)", verified)
        }
        if let module = key.tag {
            guard let tag = parameters.tag else {
                throw failure(.tagMismatch, "the signature has no tag; key \"\(keyID)\" signs for \"\(module)\"", verified)
            }
            guard tag == module else {
                throw failure(
                    .tagMismatch, "tag is \"\(tag)\" but key \"\(keyID)\" signs for \"\(module)\"", verified)
            }
        }

        // Time.
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let skew = configuration.allowedClockSkew.components.seconds
        let maximumAge = configuration.maximumAge.components.seconds
        guard let created = parameters.created else {
            throw failure(.missingParameter, "the signature has no created time", verified)
        }
        guard created <= nowSeconds + skew else {
            throw failure(
                .createdInFuture,
                "created is \(created - nowSeconds) s in the future, more than the allowed skew of \(skew) s",
                verified)
        }
        guard nowSeconds - created <= maximumAge else {
            throw failure(
                .tooOld, "created is \(nowSeconds - created) s ago, more than the maximum age of \(maximumAge) s",
                verified)
        }
        var acceptableUntil = created + maximumAge
        if let expires = parameters.expires {
            guard nowSeconds <= expires + skew else {
                throw failure(.expired, "the signature expired \(nowSeconds - expires) s ago", verified)
            }
            acceptableUntil = min(acceptableUntil, expires + skew)
        } else if configuration.requiresExpires {
            throw failure(.missingParameter, "the signature has no expires time", verified)
        }
        if configuration.requiresNonce && parameters.nonce == nil {
            throw failure(.missingParameter, "the signature has no nonce", verified)
        }

        // Coverage.
        for required in configuration.requiredComponents where !input.components.contains(required) {
            throw failure(.missingComponent, "the signature does not cover \(required), which is required", verified)
        }
        if configuration.requiresContentDigest && message.hasBody && !input.components.contains(.contentDigest) {
            throw failure(
                .missingComponent, "the message has a body but the signature does not cover \"content-digest\"",
                verified)
        }

        // The MAC.
        var base: [UInt8] = []
        base.reserveCapacity(512)
        do {
            try SignatureBase.appendComponentLines(input.components, of: message, to: &base)
            try input.appendSerializedValue(to: &base)
        } catch {
            throw baseFailure(error, label: label, keyID: keyID)
        }
        let valid: Bool
        do {
            valid = try base.withUnsafeBytes { bytes in
                Result { () throws(SigningError) in try key.secret.isValidAuthenticationCode(signature, for: bytes) }
            }.get()
        } catch {
            throw failure(.cryptoFailure, error.message, verified)
        }
        guard valid else {
            throw failure(
                .invalidSignature,
                "the signature does not match the message; compare the signature bases (swifty-sign base)", verified)
        }

        // The body.
        let digestValues = message.headers.values(for: "Content-Digest")
        if !digestValues.isEmpty {
            let verdict: ContentDigest.Verdict
            do {
                verdict = try ContentDigest.check(
                    fieldValue: digestValues.joined(separator: ", "), body: message.body ?? Data())
            } catch {
                throw failure(.cryptoFailure, error.message, verified)
            }
            switch verdict {
            case .valid: break
            case .mismatch(let algorithm):
                throw failure(.digestMismatch, "the body does not match its \(algorithm) Content-Digest", verified)
            case .noSupportedAlgorithm:
                throw failure(.digestMismatch, "Content-Digest names no supported algorithm (sha-256, sha-512)", verified)
            case .malformed(let reason):
                throw failure(.digestMismatch, reason, verified)
            }
        }
        return Checked(
            verified: verified, rememberUntil: Date(timeIntervalSince1970: TimeInterval(acceptableUntil + 1)))
    }
}
