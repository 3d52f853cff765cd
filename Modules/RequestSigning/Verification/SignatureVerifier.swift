public import Foundation
import HTTPTypes
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
///
/// Its properties are constants, so it is a class: handing it on (to a middleware, into a
/// closure) counts one reference rather than each of its tables.
public final class SignatureVerifier: Sendable {
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

        /// The longest a nonce is remembered after it is recorded: ``maximumAge`` plus
        /// ``allowedClockSkew`` (a `created` up to the skew ahead is accepted for the maximum
        /// age) plus the second `created` is rounded to; a signature with `expires` is
        /// remembered only until `expires` plus the skew, when that is sooner. Size an
        /// ``InMemoryReplayGuard`` with it.
        public var replayWindow: Duration {
            .seconds(maximumAge.components.seconds + allowedClockSkew.components.seconds + 1)
        }

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
    /// The required components as ``SignatureInputReader/componentBit(_:)`` bits, when every
    /// one has a bit; else their serialisations, compared with the covered items.
    let requiredBits: UInt32?
    let requiredSerializations: [[UInt8]]
    /// The trusted keys, in the key ring's order.
    let keys: [SigningKey]
    /// The keys' identifiers, algorithms and modules as bytes, in one table.
    let keyTable: [UInt8]
    /// Where each key's bytes are in ``keyTable``, in the order of ``keys``.
    let keyRanges: [KeyRanges]
    /// The configured label's bytes, empty when the label is not a structured-field key (then
    /// every field is read by the parser, which reports it).
    let labelBytes: [UInt8]
    /// The allowed clock skew and the maximum age in whole seconds.
    let skewSeconds: Int64
    let maximumAgeSeconds: Int64

    /// Where a trusted key's identifier, algorithm and module are in ``keyTable``: plain values,
    /// so that finding the key named by a signature counts no references.
    struct KeyRanges: Sendable {
        var id: Range<Int>
        var algorithm: Range<Int>
        var tag: Range<Int>?
    }

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
        self.clock = clock
        var bits: UInt32? = 0
        for component in configuration.requiredComponents {
            let bit =
                component.parameters.isEmpty
                ? component.name.utf8.withContiguousStorageIfAvailable(SignatureInputReader.componentBit) ?? 0 : 0
            bits = bit == 0 ? nil : bits.map { $0 | bit }
        }
        self.requiredBits = bits
        self.requiredSerializations = configuration.requiredComponents.map(\.serialized)
        var table: [UInt8] = []
        func append(_ text: String) -> Range<Int> {
            let start = table.count
            table.append(contentsOf: text.utf8)
            return start..<table.count
        }
        self.keyRanges = keyRing.keys.map { key in
            KeyRanges(id: append(key.id), algorithm: append(key.algorithm.rawValue), tag: key.tag.map(append))
        }
        self.keys = keyRing.keys
        self.keyTable = table
        let label = configuration.label ?? ""
        self.labelBytes = Self.isKey(label) ? Array(label.utf8) : []
        self.skewSeconds = configuration.allowedClockSkew.components.seconds
        self.maximumAgeSeconds = configuration.maximumAge.components.seconds
    }

    /// Verifies the message's signature and records its nonce.
    ///
    /// It runs on the caller's executor (no hop), so calling it from a server's request task
    /// costs no context switch; with the in-memory guard nothing suspends.
    /// - Returns: What was verified: label, key, module, time, nonce.
    /// - Throws: ``SignatureVerificationError`` naming the failed check.
    nonisolated(nonsending)
        public func verify(_ message: SignableMessage) async throws(SignatureVerificationError) -> VerifiedSignature
    {
        let now = clock()
        let checked = try check(message, now: now)
        let label = checked.label ?? configuration.label ?? ""
        // The key's fields are read where they are: a copy of the key would count a reference.
        let keyIndex = checked.keyIndex
        // The strings of the result, made once here rather than carried through the checks.
        let inputField = checked.joinedInput ?? message.headers.fields[checked.inputIndex].value
        let nonce: ReplayNonce?
        if let packed = checked.packedNonce {
            nonce = ReplayNonce(packed: packed)
        } else if let text = checked.nonceText
            ?? checked.nonceInField.map({ VerifiedSignature.text(in: inputField, at: $0) })
        {
            // Escaped, or too long to pack.
            nonce = ReplayNonce(keyID: keys[keyIndex].id, nonce: text)
        } else {
            nonce = nil
        }
        if let nonce {
            // The last second the signature is acceptable, plus the fraction `now` may be past it.
            let rememberUntil = Date(timeIntervalSince1970: TimeInterval(checked.acceptableUntil + 1))
            switch await replayGuard.checkAndRemember(nonce, expiresAt: rememberUntil, now: now) {
            case .fresh:
                break
            case .replayed:
                throw SignatureVerificationError(
                    .replayedNonce, "the nonce was already used with this key; a request cannot be sent twice",
                    label: label, keyID: keys[keyIndex].id)
            case .capacityExceeded:
                throw SignatureVerificationError(
                    .replayGuardFull, "the replay guard is full of unexpired nonces and refuses new ones",
                    label: label, keyID: keys[keyIndex].id)
            case .storeUnavailable(let reason):
                throw SignatureVerificationError(
                    .replayStoreUnavailable,
                    "the nonce could not be checked, so the request is refused: \(reason)",
                    label: label, keyID: keys[keyIndex].id)
            }
        }
        // Built last, in the value returned: one made before the guard's call would be copied
        // out of the suspended call's frame.
        if let nonceInField = checked.nonceInField {
            return VerifiedSignature(
                label: label, keyID: keys[keyIndex].id, module: keys[keyIndex].tag, created: checked.created,
                expires: checked.expires, nonceInField: nonceInField, signatureInputField: inputField)
        }
        return VerifiedSignature(
            label: label, keyID: keys[keyIndex].id, module: keys[keyIndex].tag, created: checked.created,
            expires: checked.expires, nonce: checked.nonceText, signatureInputField: inputField)
    }

    /// The signature base the verifier rebuilds for the message's signature (for debugging a
    /// mismatch: compare it with the signer's).
    /// - Throws: ``SignatureVerificationError`` when the signature input cannot be found or read,
    ///   or a covered component cannot be evaluated.
    public func signatureBase(for message: SignableMessage) throws(SignatureVerificationError) -> SignatureBase {
        var bytes: [UInt8] = []
        var unused = Checked()
        try pipeline(message, now: Self.seconds(clock()), baseOnly: { bytes = Array($0) }, into: &unused)
        return SignatureBase(bytes: bytes)
    }

    /// What every check but the replay guard found: plain values and, only in the less common
    /// cases, strings.
    struct Checked {
        /// The key in ``keys``.
        var keyIndex = 0
        var created: Int64 = 0
        var expires: Int64?
        /// The last second the signature is acceptable: the nonce need not be remembered longer.
        var acceptableUntil: Int64 = 0
        /// Where the `Signature-Input` field is in the message's fields.
        var inputIndex = 0
        /// The key id and nonce packed from the field's bytes, when the signature has a nonce
        /// without escapes and the pair fits.
        var packedNonce: ReplayTable.Key?
        /// Where the nonce is in the `Signature-Input` field, when it is there as it is.
        var nonceInField: Range<Int>?
        /// The nonce, when it is not ``nonceInField``.
        var nonceText: String?
        /// The label, when none is configured.
        var label: String?
        /// The values of a repeated `Signature-Input` field, joined.
        var joinedInput: String?
    }

    /// Every check but the replay guard.
    func check(_ message: SignableMessage, now: Date) throws(SignatureVerificationError) -> Checked {
        var checked = Checked()
        try pipeline(message, now: Self.seconds(now), baseOnly: nil, into: &checked)
        return checked
    }

    /// Whole seconds since 1970, rounded down.
    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// Whether `text` is a structured-field key: a lowercase letter or `*`, then lowercase
    /// letters, digits, `_`, `-`, `.`, `*`.
    static func isKey(_ text: String) -> Bool {
        guard let first = text.utf8.first, SFCharacters.isKeyStart(first) else { return false }
        return text.utf8.allSatisfy(SFCharacters.isKeyCharacter)
    }
}
