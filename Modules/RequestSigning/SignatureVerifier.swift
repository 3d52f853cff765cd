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
    /// The replay guard when it is the in-memory one, called without suspending.
    let inMemoryGuard: InMemoryReplayGuard?
    let clock: @Sendable () -> Date
    /// Whether the fast path is tried first (tests turn it off to check both paths agree).
    package var useFastPath = true
    /// The required components in the fast path's terms, or `nil` when one has parameters.
    let fastRequirements: [FastRequirement]?
    /// The required components as ``componentBit(_:)`` bits, when all have one.
    let fastRequiredBits: UInt32?
    /// The keys in the fast path's terms.
    let fastKeys: [FastKey]
    /// The configured label's bytes.
    let labelBytes: [UInt8]
    /// The allowed clock skew and the maximum age in whole seconds.
    let skewSeconds: Int64
    let maximumAgeSeconds: Int64

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
        clock: @escaping @Sendable () -> Date = SystemClock.now
    ) {
        self.keyRing = keyRing
        self.configuration = configuration
        self.replayGuard = replayGuard
        self.inMemoryGuard = replayGuard as? InMemoryReplayGuard
        self.clock = clock
        self.fastRequirements = Self.fastRequirements(for: configuration.requiredComponents)
        self.fastRequiredBits = Self.requiredBits(fastRequirements)
        self.fastKeys = keyRing.keys.map(FastKey.init)
        self.labelBytes = Array((configuration.label ?? "").utf8)
        self.skewSeconds = configuration.allowedClockSkew.components.seconds
        self.maximumAgeSeconds = configuration.maximumAge.components.seconds
    }

    /// Verifies the message's signature and records its nonce.
    ///
    /// It runs on the caller's executor (no hop), so calling it from a server's request task
    /// costs no context switch.
    /// - Returns: What was verified: label, key, module, time, nonce.
    /// - Throws: ``SignatureVerificationError`` naming the failed check.
    nonisolated(nonsending)
        public func verify(_ message: SignableMessage) async throws(SignatureVerificationError) -> VerifiedSignature
    {
        let now = clock()
        let checked = try check(message, now: now)
        if let nonce = checked.verified.nonce {
            let result: ReplayCheckResult
            if let recorded = checked.recorded {
                result = recorded
            } else if let inMemoryGuard {
                result = inMemoryGuard.record(
                    nonce: nonce, keyID: checked.verified.keyID, expiresAt: checked.rememberUntil, now: now)
            } else {
                result = await replayGuard.checkAndRemember(
                    nonce: nonce, keyID: checked.verified.keyID, expiresAt: checked.rememberUntil, now: now)
            }
            switch result {
            case .fresh:
                break
            case .replayed:
                throw SignatureVerificationError(
                    .replayedNonce, "the nonce was already used with this key; a request cannot be sent twice",
                    label: checked.verified.label, keyID: checked.verified.keyID)
            case .capacityExceeded:
                throw SignatureVerificationError(
                    .replayGuardFull, "the replay guard is full of unexpired nonces and refuses new ones",
                    label: checked.verified.label, keyID: checked.verified.keyID)
            }
        }
        return checked.verified
    }

    /// The signature base the verifier rebuilds for the message's signature (for debugging a
    /// mismatch: compare it with the signer's).
    /// - Throws: ``SignatureVerificationError`` when the signature cannot be found or read.
    public func signatureBase(for message: SignableMessage) throws(SignatureVerificationError) -> SignatureBase {
        let (input, _) = try selectInput(in: message)
        do {
            return try SignatureBase(message: message, input: input)
        } catch {
            throw baseFailure(error, label: input.label, keyID: input.parameters.keyID)
        }
    }

    // MARK: Checks

    struct Checked {
        var verified: VerifiedSignature
        var rememberUntil: Date
        /// The in-memory replay guard's answer when the fast path already asked it (last, after
        /// every other check passed).
        var recorded: ReplayCheckResult? = nil
    }

    /// Every check but the replay guard: the fast path when it applies and succeeds (which then
    /// also records the nonce when the guard is the in-memory one), else the reference path,
    /// which also gives the precise reason for a rejection.
    func check(_ message: SignableMessage, now: Date) throws(SignatureVerificationError) -> Checked {
        if useFastPath, let checked = fastCheck(message, now: now, recordingNonce: true) { return checked }
        return try referenceCheck(message, now: now)
    }

    func failure(
        _ code: SignatureVerificationError.Code,
        _ message: String,
        label: String,
        keyID: String?
    ) -> SignatureVerificationError {
        SignatureVerificationError(code, message, label: label, keyID: keyID)
    }

    private func selectInput(in message: SignableMessage) throws(SignatureVerificationError) -> (SignatureInput, String)
    {
        guard let value = MessageText.combinedValue(in: message.headers, lowercaseName: "signature-input") else {
            throw SignatureVerificationError(.missingSignature, "the message has no Signature-Input field")
        }
        let dictionary: SFDictionary
        do {
            dictionary = try SFParser.parseDictionary(value, limits: configuration.fieldLimits)
        } catch {
            throw SignatureVerificationError(
                .malformedSignatureInput, "Signature-Input is not a structured-field dictionary: \(error)")
        }
        let entry: SFDictionary.Entry
        if let label = configuration.label {
            guard let found = dictionary.entries.first(where: { $0.key == label }) else {
                let present = dictionary.isEmpty ? "none" : dictionary.keys.joined(separator: ", ")
                throw SignatureVerificationError(
                    .missingSignature, "Signature-Input has no signature labelled \"\(label)\" (labels: \(present))",
                    label: label)
            }
            entry = found
        } else {
            guard let first = dictionary.entries.first else {
                throw SignatureVerificationError(.missingSignature, "Signature-Input holds no signature")
            }
            entry = first
        }
        // Only the selected member is read as a signature input: others may use components or
        // parameters this verifier does not know.
        do {
            return (try SignatureInput(label: entry.key, member: entry.member), value)
        } catch {
            throw SignatureVerificationError(.malformedSignatureInput, error.message, label: entry.key)
        }
    }

    private func baseFailure(_ error: SigningError, label: String, keyID: String?) -> SignatureVerificationError {
        switch error.code {
        case .missingComponent: SignatureVerificationError(.missingComponent, error.message, label: label, keyID: keyID)
        case .cryptoFailure: SignatureVerificationError(.cryptoFailure, error.message, label: label, keyID: keyID)
        default: SignatureVerificationError(.malformedSignatureInput, error.message, label: label, keyID: keyID)
        }
    }

    /// The key, algorithm, module and time checks shared by both paths.
    /// - Returns: The key and the last second the signature is acceptable.
    func checkParameters(
        _ decoded: SignatureParameters.Decoded,
        label: String,
        now: Date
    ) throws(SignatureVerificationError) -> (key: SigningKey, acceptableUntil: Int64) {
        if let mistyped = decoded.mistyped {
            throw failure(
                .malformedSignatureInput, "the parameter \"\(mistyped)\" of \"\(label)\" has the wrong type",
                label: label,
                keyID: nil)
        }
        guard let keyID = decoded.keyID else {
            throw failure(.missingParameter, "the signature has no keyid", label: label, keyID: nil)
        }
        guard let key = keyRing[keyID] else {
            throw failure(.unknownKey, "no trusted key has the id \"\(keyID)\"", label: label, keyID: keyID)
        }
        if let algorithm = decoded.algorithm, algorithm != key.algorithm.rawValue {
            throw failure(
                .algorithmMismatch, "alg is \"\(algorithm)\" but key \"\(keyID)\" is \(key.algorithm)", label: label,
                keyID: keyID)
        }
        if let module = key.tag {
            guard let tag = decoded.tag else {
                throw failure(
                    .tagMismatch, "the signature has no tag; key \"\(keyID)\" signs for \"\(module)\"", label: label,
                    keyID: keyID)
            }
            guard tag == module else {
                throw failure(
                    .tagMismatch, "tag is \"\(tag)\" but key \"\(keyID)\" signs for \"\(module)\"", label: label,
                    keyID: keyID)
            }
        }
        let acceptableUntil = try checkTime(
            created: decoded.created, expires: decoded.expires, hasNonce: decoded.nonce != nil, label: label,
            keyID: keyID, now: now)
        return (key, acceptableUntil)
    }

    /// The time and nonce checks shared by both paths.
    /// - Returns: The last second the signature is acceptable.
    func checkTime(
        created: Int64?,
        expires: Int64?,
        hasNonce: Bool,
        label: String,
        keyID: String,
        now: Date
    ) throws(SignatureVerificationError) -> Int64 {
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let skew = skewSeconds
        let maximumAge = maximumAgeSeconds
        guard let created else {
            throw failure(.missingParameter, "the signature has no created time", label: label, keyID: keyID)
        }
        guard created <= nowSeconds + skew else {
            throw failure(
                .createdInFuture,
                "created is \(created - nowSeconds) s in the future, more than the allowed skew of \(skew) s",
                label: label, keyID: keyID)
        }
        guard nowSeconds - created <= maximumAge else {
            throw failure(
                .tooOld, "created is \(nowSeconds - created) s ago, more than the maximum age of \(maximumAge) s",
                label: label, keyID: keyID)
        }
        var acceptableUntil = created + maximumAge
        if let expires {
            guard nowSeconds <= expires + skew else {
                throw failure(
                    .expired, "the signature expired \(nowSeconds - expires) s ago", label: label, keyID: keyID)
            }
            acceptableUntil = min(acceptableUntil, expires + skew)
        } else if configuration.requiresExpires {
            throw failure(.missingParameter, "the signature has no expires time", label: label, keyID: keyID)
        }
        if configuration.requiresNonce && !hasNonce {
            throw failure(.missingParameter, "the signature has no nonce", label: label, keyID: keyID)
        }
        return acceptableUntil
    }

    /// The reference implementation of every check but the replay guard, built on the general
    /// structured-field parser and signature base.
    private func referenceCheck(_ message: SignableMessage, now: Date) throws(SignatureVerificationError) -> Checked {
        let (input, inputField) = try selectInput(in: message)
        let label = input.label

        // The Signature member.
        guard let signatureValue = MessageText.combinedValue(in: message.headers, lowercaseName: "signature") else {
            throw SignatureVerificationError(.missingSignature, "the message has no Signature field", label: label)
        }
        let signatures: SFDictionary
        do {
            signatures = try SFParser.parseDictionary(signatureValue, limits: configuration.fieldLimits)
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

        // Key, algorithm, module, time.
        let decoded = input.parameters.decoded()
        let (key, acceptableUntil) = try checkParameters(decoded, label: label, now: now)
        let keyID = key.id

        // Coverage.
        for required in configuration.requiredComponents where !input.components.contains(required) {
            throw failure(
                .missingComponent, "the signature does not cover \(required), which is required", label: label,
                keyID: keyID)
        }
        if configuration.requiresContentDigest && message.hasBody && !input.components.contains(.contentDigest) {
            throw failure(
                .missingComponent, "the message has a body but the signature does not cover \"content-digest\"",
                label: label, keyID: keyID)
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
            throw failure(.cryptoFailure, error.message, label: label, keyID: keyID)
        }
        guard valid else {
            throw failure(
                .invalidSignature,
                "the signature does not match the message; compare the signature bases (swifty-sign base)",
                label: label, keyID: keyID)
        }

        // The body.
        if let digestValue = MessageText.combinedValue(in: message.headers, lowercaseName: "content-digest") {
            let verdict: ContentDigest.Verdict
            do {
                verdict = try ContentDigest.check(fieldValue: digestValue, body: message.body ?? Data())
            } catch {
                throw failure(.cryptoFailure, error.message, label: label, keyID: keyID)
            }
            switch verdict {
            case .valid: break
            case .mismatch(let algorithm):
                throw failure(
                    .digestMismatch, "the body does not match its \(algorithm) Content-Digest", label: label,
                    keyID: keyID)
            case .noSupportedAlgorithm:
                throw failure(
                    .digestMismatch, "Content-Digest names no supported algorithm (sha-256, sha-512)", label: label,
                    keyID: keyID)
            case .malformed(let reason):
                throw failure(.digestMismatch, reason, label: label, keyID: keyID)
            }
        }
        let verified = VerifiedSignature(
            label: label, keyID: keyID, module: key.tag, created: decoded.created ?? 0, expires: decoded.expires,
            nonce: decoded.nonce, signatureInputField: inputField)
        return Checked(
            verified: verified, rememberUntil: Date(timeIntervalSince1970: TimeInterval(acceptableUntil + 1)))
    }
}
