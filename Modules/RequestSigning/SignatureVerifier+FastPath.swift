import COpenSSL
import Foundation
import ServiceCore

extension SignatureVerifier {
    /// A required component in the fast path's terms: its name's bytes.
    struct FastRequirement: Sendable {
        var name: [UInt8]
    }

    /// The required components as names, or `nil` when one has parameters (then the fast path
    /// is not used).
    static func fastRequirements(for components: [ComponentIdentifier]) -> [FastRequirement]? {
        guard components.allSatisfy({ $0.parameters.isEmpty }) else { return nil }
        return components.map { FastRequirement(name: Array($0.name.utf8)) }
    }

    /// A trusted key with its identifier, algorithm and module as bytes.
    struct FastKey: Sendable {
        var key: SigningKey
        var id: [UInt8]
        var algorithm: [UInt8]
        var tag: [UInt8]?

        init(_ key: SigningKey) {
            self.key = key
            id = Array(key.id.utf8)
            algorithm = Array(key.algorithm.rawValue.utf8)
            tag = key.tag.map { Array($0.utf8) }
        }
    }

    /// A signature parameter as the fast path read it, kept in order for the base.
    struct FastParameter {
        enum Kind: UInt8 { case created, expires, nonce, keyID, algorithm, tag }
        var kind: Kind
        var key: Range<Int>
        /// The integer of `created` and `expires`.
        var number: Int64
        /// The range between the quotes of a string parameter.
        var text: Range<Int>
    }

    /// Every check but the replay guard, without building structured-field values, component
    /// identifiers or intermediate strings: for the common case of a canonical, well-formed
    /// signature that verifies.
    ///
    /// Returns `nil` whenever anything is unusual (escapes, component parameters, repeated
    /// labels, unknown parameters) or any check fails; the reference path then decides and
    /// gives the reason. It accepts only what the reference path accepts.
    ///
    /// With `recordingNonce`, a successful check ends by recording the nonce in the in-memory
    /// replay guard (straight from the field's bytes) and returns the guard's answer in
    /// ``Checked/recorded``.
    func fastCheck(_ message: SignableMessage, now: Date, recordingNonce: Bool = false) -> Checked? {
        guard let label = configuration.label, let requirements = fastRequirements, !message.isResponse else {
            return nil
        }
        let fields = MessageText.signatureFields(in: message.headers)
        guard let inputField = fields.input, let signatureField = fields.signature else { return nil }
        let digestField = fields.digest
        let limits = configuration.fieldLimits
        return withUnsafeTemporaryAllocation(byteCount: 72, alignment: 8) { signature -> Checked? in
            let canonicalLength = ByteText.withBytes(signatureField) { field in
                labelBytes.withUnsafeBufferPointer { label in
                    Self.canonicalSignature(field, label: label, limits: limits, into: signature)
                }
            }
            guard
                let signatureLength = canonicalLength
                    ?? Self.signatureBytes(signatureField, label: label, limits: limits, into: signature)
            else { return nil }
            return ByteText.withBytes(inputField) { input -> Checked? in
                withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 32) { names -> Checked? in
                    withUnsafeTemporaryAllocation(of: FastParameter.self, capacity: 8) { parameters -> Checked? in
                        withUnsafeTemporaryAllocation(byteCount: 1_024, alignment: 16) { buffer -> Checked? in
                            var base = ByteWriter(buffer)
                            return fastCheck(
                                message, input: input, inputField: inputField, digestField: digestField, label: label,
                                requirements: requirements, names: names, parameters: parameters, base: &base,
                                signature: UnsafeRawBufferPointer(rebasing: signature[..<signatureLength]), now: now,
                                recordingNonce: recordingNonce)
                        }
                    }
                }
            }
        }
    }

    private func fastCheck(
        _ message: SignableMessage,
        input: UnsafeBufferPointer<UInt8>,
        inputField: String,
        digestField: String?,
        label: String,
        requirements: [FastRequirement],
        names: UnsafeMutableBufferPointer<Range<Int>>,
        parameters: UnsafeMutableBufferPointer<FastParameter>,
        base: inout ByteWriter,
        signature: UnsafeRawBufferPointer,
        now: Date,
        recordingNonce: Bool
    ) -> Checked? {
        // Signature-Input: the signer's own shape read directly, else one pass of the general
        // scanner (the labelled member read, the others validated).
        let limits = configuration.fieldLimits
        guard input.count <= limits.maximumLength else { return nil }
        var nameCount = 0
        var parameterCount = 0
        let canonical = labelBytes.withUnsafeBufferPointer { label in
            Self.scanCanonicalInput(
                input, label: label, limits: limits, names: names, nameCount: &nameCount, parameters: parameters,
                parameterCount: &parameterCount)
        }
        if !canonical {
            nameCount = 0
            parameterCount = 0
            guard
                scanInput(
                    input, names: names, nameCount: &nameCount, parameters: parameters, parameterCount: &parameterCount)
            else { return nil }
        }
        let names = UnsafeBufferPointer(rebasing: names[..<nameCount])
        let parameters = UnsafeBufferPointer(rebasing: parameters[..<parameterCount])

        // Key, algorithm and module, compared as bytes.
        var keyID: Range<Int>?
        var algorithm: Range<Int>?
        var tag: Range<Int>?
        var nonce: Range<Int>?
        var created: Int64?
        var expires: Int64?
        for parameter in parameters {
            switch parameter.kind {
            case .created: created = parameter.number
            case .expires: expires = parameter.number
            case .nonce: nonce = parameter.text
            case .keyID: keyID = parameter.text
            case .algorithm: algorithm = parameter.text
            case .tag: tag = parameter.text
            }
        }
        guard let keyID, let keyIndex = fastKeys.indices.first(where: { Self.sameBytes(input, keyID, fastKeys[$0].id) })
        else { return nil }
        let key = fastKeys[keyIndex].key
        if let algorithm, !Self.sameBytes(input, algorithm, fastKeys[keyIndex].algorithm) { return nil }
        if let module = fastKeys[keyIndex].tag {
            guard let tag, Self.sameBytes(input, tag, module) else { return nil }
        }
        guard
            let acceptableUntil = try? checkTime(
                created: created, expires: expires, hasNonce: nonce != nil, label: label, keyID: key.id, now: now)
        else { return nil }

        // Components: not repeated, covering what is required. Well-known names are told apart
        // by one classification each (a bit per name); others are compared pairwise.
        var known: UInt32 = 0
        var others = 0
        for name in names {
            let bit = Self.componentBit(UnsafeBufferPointer(rebasing: input[name]))
            if bit == 0 {
                others += 1
            } else {
                guard known & bit == 0 else { return nil }
                known |= bit
            }
        }
        if others > 1 {
            for index in 0..<names.count {
                for earlier in 0..<index where Self.sameBytes(input, names[earlier], names[index]) { return nil }
            }
        }
        if let requiredBits = fastRequiredBits {
            guard known & requiredBits == requiredBits else { return nil }
        } else {
            for requirement in requirements {
                let covered = requirement.name.withUnsafeBufferPointer { required in
                    names.contains { Self.sameBytes(input, $0, required) }
                }
                guard covered else { return nil }
            }
        }
        if configuration.requiresContentDigest && message.hasBody && known & Self.contentDigestBit == 0 {
            return nil
        }

        // The base.
        for name in names {
            let nameBytes = UnsafeBufferPointer(rebasing: input[name])
            base.append(UInt8(ascii: "\""))
            base.append(nameBytes)
            base.append("\": ")
            if nameBytes[0] == UInt8(ascii: "@") {
                guard message.writeDerived(nameBytes, to: &base) else { return nil }
            } else {
                for byte in nameBytes where !SFCharacters.isFieldNameCharacter(byte) || (byte >= 0x41 && byte <= 0x5A) {
                    return nil
                }
                guard case .appended = SignableMessage.writeField(nameBytes, in: message.headers, to: &base) else {
                    return nil
                }
            }
            base.append(0x0A)
        }
        base.append("\"@signature-params\": ")
        if canonical {
            // The member as received is its own serialisation (single spaces, no leading zeros).
            base.append(UnsafeBufferPointer(rebasing: input[(labelBytes.count + 1)...]))
        } else {
            Self.appendSerializedMember(names: names, parameters: parameters, input: input, to: &base)
        }

        // The MAC, compared in constant time.
        let length = key.algorithm.macLength
        guard signature.count == length else { return nil }
        let matches = withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { expected -> Bool in
            let written = try? key.secret.authenticate(UnsafeRawBufferPointer(base.bytes), into: expected)
            guard written == length else { return false }
            return CRYPTO_memcmp(expected.baseAddress, signature.baseAddress, length) == 0
        }
        guard matches else { return nil }

        // The body.
        if let digestField {
            let canonical = ByteText.withBytes(digestField) { Self.canonicalDigestMatches($0, body: message.body) }
            guard canonical ?? Self.digestMatches(digestField, body: message.body, limits: limits) else { return nil }
        }
        let verified = VerifiedSignature(
            label: label, keyID: key.id, module: key.tag, created: created ?? 0, expires: expires,
            nonce: nonce.map { String(decoding: UnsafeBufferPointer(rebasing: input[$0]), as: UTF8.self) },
            signatureInputField: inputField)
        // Last, the nonce, recorded straight from the field's bytes when the guard is in memory.
        var recorded: ReplayCheckResult?
        if recordingNonce, inMemoryGuard != nil, let nonce {
            let packed = fastKeys[keyIndex].id.withUnsafeBufferPointer { id in
                ReplayTable.Key(keyID: id, nonce: UnsafeBufferPointer(rebasing: input[nonce]))
            }
            if let packed {
                recorded = inMemoryGuard?.record(
                    packed, expiresAt: TimeInterval(acceptableUntil + 1), now: now.timeIntervalSince1970)
            }
        }
        return Checked(
            verified: verified, rememberUntil: Date(timeIntervalSince1970: TimeInterval(acceptableUntil + 1)),
            recorded: recorded)
    }

    /// Writes the `@signature-params` value from the parsed pieces.
    private static func appendSerializedMember(
        names: UnsafeBufferPointer<Range<Int>>,
        parameters: UnsafeBufferPointer<FastParameter>,
        input: UnsafeBufferPointer<UInt8>,
        to base: inout ByteWriter
    ) {
        base.append(UInt8(ascii: "("))
        for (index, name) in names.enumerated() {
            if index > 0 { base.append(0x20) }
            base.append(UInt8(ascii: "\""))
            base.append(UnsafeBufferPointer(rebasing: input[name]))
            base.append(UInt8(ascii: "\""))
        }
        base.append(UInt8(ascii: ")"))
        for parameter in parameters {
            base.append(UInt8(ascii: ";"))
            base.append(UnsafeBufferPointer(rebasing: input[parameter.key]))
            base.append(UInt8(ascii: "="))
            switch parameter.kind {
            case .created, .expires:
                base.append(decimal: parameter.number)
            case .nonce, .keyID, .algorithm, .tag:
                base.append(UInt8(ascii: "\""))
                base.append(UnsafeBufferPointer(rebasing: input[parameter.text]))
                base.append(UInt8(ascii: "\""))
            }
        }
    }

    /// Reads `Signature-Input` with the general validating scanner: the labelled member read,
    /// the others validated. Returns `false` when anything is unusual.
    private func scanInput(
        _ input: UnsafeBufferPointer<UInt8>,
        names: UnsafeMutableBufferPointer<Range<Int>>,
        nameCount: inout Int,
        parameters: UnsafeMutableBufferPointer<FastParameter>,
        parameterCount: inout Int
    ) -> Bool {
        var scanner = SFValidator(input, limits: configuration.fieldLimits)
        let limits = configuration.fieldLimits
        var found = false
        var members = 0
        scanner.skipSpaces()
        while !scanner.atEnd {
            guard let key = scanner.key() else { return false }
            members += 1
            guard members <= limits.maximumMembers else { return false }
            if Self.sameBytes(input, key, labelBytes) {
                guard !found, scanner.current == UInt8(ascii: "=") else { return false }
                found = true
                scanner.index += 1
                guard
                    Self.readMember(
                        &scanner, names: names, nameCount: &nameCount, parameters: parameters,
                        parameterCount: &parameterCount)
                else { return false }
            } else if scanner.current == UInt8(ascii: "=") {
                scanner.index += 1
                guard scanner.member() else { return false }
            } else {
                guard scanner.parameters() else { return false }
            }
            scanner.skipOptionalWhitespace()
            if scanner.atEnd { break }
            guard scanner.current == UInt8(ascii: ",") else { return false }
            scanner.index += 1
            scanner.skipOptionalWhitespace()
            if scanner.atEnd { return false }
        }
        return found
    }

    /// Reads the selected member: an inner list of plain strings (no escapes, no parameters),
    /// then the known parameters, each once, with the expected types.
    private static func readMember(
        _ scanner: inout SFValidator,
        names: UnsafeMutableBufferPointer<Range<Int>>,
        nameCount: inout Int,
        parameters: UnsafeMutableBufferPointer<FastParameter>,
        parameterCount: inout Int
    ) -> Bool {
        guard scanner.current == UInt8(ascii: "(") else { return false }
        scanner.index += 1
        while true {
            scanner.skipSpaces()
            if scanner.current == UInt8(ascii: ")") {
                scanner.index += 1
                break
            }
            guard nameCount < names.count, nameCount < scanner.limits.maximumInnerListItems,
                case .string(let name, escaped: false)? = scanner.bareItem(), scanner.current != UInt8(ascii: ";"),
                !name.isEmpty
            else { return false }
            names[nameCount] = name
            nameCount += 1
            guard let next = scanner.current, next == 0x20 || next == UInt8(ascii: ")") else { return false }
        }
        var seen: UInt8 = 0
        while scanner.current == UInt8(ascii: ";") {
            scanner.index += 1
            scanner.skipSpaces()
            guard parameterCount < parameters.count, parameterCount < scanner.limits.maximumParameters,
                let key = scanner.key(), scanner.current == UInt8(ascii: "=")
            else { return false }
            scanner.index += 1
            guard let value = scanner.bareItem() else { return false }
            let kind: FastParameter.Kind
            var number: Int64 = 0
            var text = 0..<0
            if case .integer(let integer) = value {
                if scanner.matches(key, "created") {
                    kind = .created
                } else if scanner.matches(key, "expires") {
                    kind = .expires
                } else {
                    return false
                }
                number = integer
            } else if case .string(let range, escaped: false) = value {
                if scanner.matches(key, "nonce") {
                    kind = .nonce
                } else if scanner.matches(key, "keyid") {
                    kind = .keyID
                } else if scanner.matches(key, "alg") {
                    kind = .algorithm
                } else if scanner.matches(key, "tag") {
                    kind = .tag
                } else {
                    return false
                }
                text = range
            } else {
                return false
            }
            let bit: UInt8 = 1 << kind.rawValue
            guard seen & bit == 0 else { return false }
            seen |= bit
            parameters[parameterCount] = FastParameter(kind: kind, key: key, number: number, text: text)
            parameterCount += 1
        }
        return true
    }

    /// Decodes the `Signature` member with the label into `output`, or returns `nil` when it is
    /// absent, repeated, not a plain byte sequence, or the field is malformed.
    private static func signatureBytes(
        _ field: String,
        label: String,
        limits: SFParser.Limits,
        into output: UnsafeMutableRawBufferPointer
    ) -> Int? {
        ByteText.withBytes(field) { bytes -> Int? in
            var validator = SFValidator(bytes, limits: limits)
            var found: Range<Int>?
            var occurrences = 0
            let valid = validator.dictionary { key, member in
                if ByteText.equals(bytes, key, label) {
                    occurrences += 1
                    found = member
                }
            }
            // `=:base64:` exactly; the validator checked the base64, and 88 characters decode to
            // at most 66 bytes, more than any MAC, so longer ones are left to the reference path.
            guard valid, occurrences == 1, let member = found, member.count >= 3, member.count <= 88,
                bytes[member.lowerBound] == UInt8(ascii: "="), bytes[member.lowerBound + 1] == UInt8(ascii: ":"),
                bytes[member.upperBound - 1] == UInt8(ascii: ":"), output.count >= 66
            else { return nil }
            return Base64.decodeValidated(
                UnsafeBufferPointer(rebasing: bytes[member.lowerBound + 2..<member.upperBound - 1]), into: output)
        }
    }

    /// Whether every supported member of a `Content-Digest` field is a plain byte sequence that
    /// matches the body (and there is at least one).
    private static func digestMatches(_ field: String, body: Data?, limits: SFParser.Limits) -> Bool {
        ByteText.withBytes(field) { bytes -> Bool in
            var validator = SFValidator(bytes, limits: limits)
            var supported = 0
            var allMatch = true
            let valid = validator.dictionary { key, member in
                let algorithm: DigestAlgorithm
                if ByteText.equals(bytes, key, "sha-256") {
                    algorithm = .sha256
                } else if ByteText.equals(bytes, key, "sha-512") {
                    algorithm = .sha512
                } else {
                    return
                }
                supported += 1
                guard member.count >= 3, member.count <= 91, bytes[member.lowerBound] == UInt8(ascii: "="),
                    bytes[member.lowerBound + 1] == UInt8(ascii: ":"), bytes[member.upperBound - 1] == UInt8(ascii: ":")
                else {
                    allMatch = false
                    return
                }
                let encoded = UnsafeBufferPointer(rebasing: bytes[member.lowerBound + 2..<member.upperBound - 1])
                let digest = (body ?? Data()).withUnsafeBytes { try? algorithm.hash($0) }
                let same = withUnsafeTemporaryAllocation(byteCount: 72, alignment: 8) { expected -> Bool in
                    guard let digest else { return false }
                    let length = Base64.decodeValidated(encoded, into: expected)
                    guard length == digest.count else { return false }
                    return digest.withUnsafeBytes { memcmp($0.baseAddress!, expected.baseAddress!, length) == 0 }
                }
                allMatch = allMatch && same
            }
            return valid && supported > 0 && allMatch
        }
    }

    private static func sameBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Range<Int>, _ second: Range<Int>)
        -> Bool
    {
        sameBytes(bytes, first, UnsafeBufferPointer(rebasing: bytes[second]))
    }

    private static func sameBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ other: [UInt8]) -> Bool {
        other.withUnsafeBufferPointer { sameBytes(bytes, range, $0) }
    }

    private static func sameBytes(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        _ other: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard range.count == other.count else { return false }
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != other[offset] { return false }
        return true
    }
}
