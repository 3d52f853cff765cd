import Foundation
import HTTPTypes
import ServiceCore

@testable import RequestSigning

/// The reference verifier: every check of ``SignatureVerifier`` written over the general
/// structured-field parser, ``SignatureInput`` and ``ReferenceBase``, in the same order. The
/// oracle the production verifier must agree with (outcome and error code) on every message.
struct ReferenceVerifier {
    var keyRing: KeyRing
    var configuration: SignatureVerifier.Configuration
    var replayGuard: any ReplayGuard
    var clock: @Sendable () -> Date

    /// Verifies the message and records its nonce.
    func verify(_ message: SignableMessage) async throws(SignatureVerificationError) -> VerifiedSignature {
        let now = clock()
        let (verified, rememberUntil) = try check(message, now: now)
        if let nonce = verified.nonce {
            let result = await replayGuard.checkAndRemember(
                ReplayNonce(keyID: verified.keyID, nonce: nonce), expiresAt: rememberUntil, now: now)
            switch result {
            case .fresh: break
            case .replayed: throw failure(.replayedNonce, "replayed", verified.label, verified.keyID)
            case .capacityExceeded: throw failure(.replayGuardFull, "full", verified.label, verified.keyID)
            case .storeUnavailable(let reason):
                throw failure(.replayStoreUnavailable, reason, verified.label, verified.keyID)
            }
        }
        return verified
    }

    /// The base the reference rebuilds for the message's signature.
    func signatureBase(for message: SignableMessage) throws(SignatureVerificationError) -> [UInt8] {
        let (input, _) = try selectInput(in: message)
        do {
            return try ReferenceBase.bytes(message: message, input: input)
        } catch {
            throw baseFailure(error, label: input.label, keyID: input.parameters.keyID)
        }
    }

    private func failure(
        _ code: SignatureVerificationError.Code,
        _ text: String,
        _ label: String?,
        _ keyID: String?
    ) -> SignatureVerificationError {
        SignatureVerificationError(code, text, label: label, keyID: keyID)
    }

    private func combined(_ headers: HTTPHeaders, _ name: String) -> String? {
        let values = headers.filter { $0.name.lowercased() == name }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    private func selectInput(in message: SignableMessage) throws(SignatureVerificationError) -> (SignatureInput, String)
    {
        guard let value = combined(message.headers, "signature-input") else {
            throw failure(.missingSignature, "no Signature-Input", nil, nil)
        }
        let dictionary: SFDictionary
        do {
            dictionary = try SFParser.parseDictionary(value, limits: configuration.fieldLimits)
        } catch {
            throw failure(.malformedSignatureInput, "not a dictionary", nil, nil)
        }
        let entry: SFDictionary.Entry
        if let label = configuration.label {
            guard let found = dictionary.entries.first(where: { $0.key == label }) else {
                throw failure(.missingSignature, "no such label", label, nil)
            }
            entry = found
        } else {
            guard let first = dictionary.entries.first else { throw failure(.missingSignature, "empty", nil, nil) }
            entry = first
        }
        do {
            return (try SignatureInput(label: entry.key, member: entry.member), value)
        } catch {
            throw failure(.malformedSignatureInput, error.message, entry.key, nil)
        }
    }

    private func baseFailure(_ error: SigningError, label: String, keyID: String?) -> SignatureVerificationError {
        switch error.code {
        case .missingComponent: failure(.missingComponent, error.message, label, keyID)
        case .cryptoFailure: failure(.cryptoFailure, error.message, label, keyID)
        default: failure(.malformedSignatureInput, error.message, label, keyID)
        }
    }

    private func check(_ message: SignableMessage, now: Date) throws(SignatureVerificationError) -> (
        VerifiedSignature, Date
    ) {
        let (input, inputField) = try selectInput(in: message)
        let label = input.label
        guard let signatureValue = combined(message.headers, "signature") else {
            throw failure(.missingSignature, "no Signature", label, nil)
        }
        let signatures: SFDictionary
        do {
            signatures = try SFParser.parseDictionary(signatureValue, limits: configuration.fieldLimits)
        } catch {
            throw failure(.malformedSignature, "not a dictionary", label, nil)
        }
        guard let member = signatures[label] else { throw failure(.missingSignature, "no member", label, nil) }
        guard case .item(let item) = member, case .byteSequence(let signature) = item.bareItem else {
            throw failure(.malformedSignature, "not a byte sequence", label, nil)
        }

        // Key, algorithm, module.
        let parameters = input.parameters
        if parameters.mistypedParameter != nil { throw failure(.malformedSignatureInput, "mistyped", label, nil) }
        guard let keyID = parameters.keyID else { throw failure(.missingParameter, "no keyid", label, nil) }
        guard let key = keyRing[keyID] else { throw failure(.unknownKey, "unknown key", label, keyID) }
        if let algorithm = parameters.algorithm, algorithm != key.algorithm.rawValue {
            throw failure(.algorithmMismatch, "alg", label, keyID)
        }
        if let module = key.tag, parameters.tag != module { throw failure(.tagMismatch, "tag", label, keyID) }

        // Time and nonce.
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let skew = configuration.allowedClockSkew.components.seconds
        let maximumAge = configuration.maximumAge.components.seconds
        guard let created = parameters.created else { throw failure(.missingParameter, "no created", label, keyID) }
        guard created <= nowSeconds + skew else { throw failure(.createdInFuture, "future", label, keyID) }
        guard nowSeconds - created <= maximumAge else { throw failure(.tooOld, "old", label, keyID) }
        var acceptableUntil = created + maximumAge
        if let expires = parameters.expires {
            guard nowSeconds <= expires + skew else { throw failure(.expired, "expired", label, keyID) }
            acceptableUntil = min(acceptableUntil, expires + skew)
        } else if configuration.requiresExpires {
            throw failure(.missingParameter, "no expires", label, keyID)
        }
        if configuration.requiresNonce && parameters.nonce == nil {
            throw failure(.missingParameter, "no nonce", label, keyID)
        }

        // Coverage.
        for required in configuration.requiredComponents where !input.components.contains(required) {
            throw failure(.missingComponent, "not covered", label, keyID)
        }
        let hasBody = !(message.body?.isEmpty ?? true)
        if configuration.requiresContentDigest && hasBody && !input.components.contains(.contentDigest) {
            throw failure(.missingComponent, "content-digest not covered", label, keyID)
        }

        // The MAC.
        let base: [UInt8]
        do {
            base = try ReferenceBase.bytes(message: message, input: input)
        } catch {
            throw baseFailure(error, label: label, keyID: keyID)
        }
        let expected: [UInt8]
        do {
            expected = try key.secret.authenticationCode(for: base)
        } catch {
            throw failure(.cryptoFailure, error.message, label, keyID)
        }
        guard expected == signature else { throw failure(.invalidSignature, "mismatch", label, keyID) }

        // The body: every supported member matches, and there is one.
        if let digestValue = combined(message.headers, "content-digest") {
            guard let dictionary = try? SFParser.parseDictionary(digestValue) else {
                throw failure(.digestMismatch, "malformed", label, keyID)
            }
            var checked = 0
            for entry in dictionary.entries {
                guard let algorithm = DigestAlgorithm(rawValue: entry.key) else { continue }
                guard case .item(let item) = entry.member, case .byteSequence(let digest) = item.bareItem,
                    (try? algorithm.hash(message.body ?? Data())) == digest
                else { throw failure(.digestMismatch, "mismatch", label, keyID) }
                checked += 1
            }
            guard checked > 0 else { throw failure(.digestMismatch, "no supported algorithm", label, keyID) }
        }
        let verified = VerifiedSignature(
            label: label, keyID: keyID, module: key.tag, created: created, expires: parameters.expires,
            nonce: parameters.nonce, signatureInputField: inputField)
        return (verified, Date(timeIntervalSince1970: TimeInterval(acceptableUntil + 1)))
    }
}
