import Foundation
import HTTPTypes
import ServiceCore

extension SignatureVerifier {
    /// The selected `Signature-Input` member, read.
    struct Member {
        var label: String
        /// `label=value`, in its serialised form.
        var bytes: UnsafeBufferPointer<UInt8>
        /// Where the value (the inner list) starts.
        var valueStart: Int
        var items: UnsafeBufferPointer<SignatureInputReader.Item>
        var parameters: UnsafeBufferPointer<SignatureInputReader.Parameter>
        /// The components as the parser read them, in the order of ``items``, when the member
        /// was normalised; `nil` when every item is simple.
        var components: [ComponentIdentifier]?
    }

    /// The verifier's one pass: finds and reads the signature input, then checks the key, the
    /// times, the coverage, the MAC over the rebuilt base and the body.
    ///
    /// The three signature fields are found by position, without copying a string. A
    /// `Signature-Input` field in the exact form the signer writes is read where it lies; any
    /// other spelling is first normalised by the structured-field parser (which also reports
    /// what is malformed), then read the same way. The findings go to `checked` (written in
    /// place: a result returned through the closures below would be copied at each). With
    /// `baseOnly`, it stops after building the base and hands it over.
    func pipeline(
        _ message: SignableMessage,
        now: Int64,
        baseOnly: ((UnsafeBufferPointer<UInt8>) -> Void)?,
        into checked: inout Checked
    ) throws(SignatureVerificationError) {
        try message.headers.fields.withUnsafeBufferPointer { fields throws(SignatureVerificationError) in
            let found = MessageText.signatureFieldIndices(in: fields)
            guard found.repeated else {
                try pipeline(found, in: fields, message, now: now, baseOnly: baseOnly, into: &checked)
                return
            }
            // A repeated field is read as its values joined, from three fields made for the purpose.
            let headers = message.headers
            let input = MessageText.combinedValue(in: headers, lowercaseName: "signature-input")
            let signature = MessageText.combinedValue(in: headers, lowercaseName: "signature")
            let digest = MessageText.combinedValue(in: headers, lowercaseName: "content-digest")
            let joined = [input, signature, digest].map { HTTPHeaders.Field(name: "", value: $0 ?? "") }
            let indices = MessageText.FieldIndices(
                input: input == nil ? -1 : 0, signature: signature == nil ? -1 : 1, digest: digest == nil ? -1 : 2,
                repeated: false)
            try joined.withUnsafeBufferPointer { joined throws(SignatureVerificationError) in
                try pipeline(indices, in: joined, message, now: now, baseOnly: baseOnly, into: &checked)
            }
            checked.joinedInput = input
        }
    }

    /// ``pipeline(_:now:baseOnly:)`` once the fields are found.
    private func pipeline(
        _ found: MessageText.FieldIndices,
        in fields: UnsafeBufferPointer<HTTPHeaders.Field>,
        _ message: SignableMessage,
        now: Int64,
        baseOnly: ((UnsafeBufferPointer<UInt8>) -> Void)?,
        into checked: inout Checked
    ) throws(SignatureVerificationError) {
        guard found.input >= 0 else {
            throw SignatureVerificationError(.missingSignature, "the message has no Signature-Input field")
        }
        let context = Context(fields: fields, found: found, now: now, baseOnly: baseOnly)
        if let label = configuration.label, !labelBytes.isEmpty {
            let outcome = ByteText.withBytes(fields[found.input].value) {
                input -> Result<Void, SignatureVerificationError>? in
                guard hasLabelPrefix(input) else { return nil }
                return withUnsafeTemporaryAllocation(of: SignatureInputReader.Item.self, capacity: 32) { items in
                    withUnsafeTemporaryAllocation(of: SignatureInputReader.Parameter.self, capacity: 8) { parameters in
                        read(
                            input, label: label, mode: .received, components: nil, items: items,
                            parameters: parameters, message, context, into: &checked)
                    }
                }
            }
            if let outcome { return try outcome.get() }
        }
        let (label, serialized, components, parameterCount) = try normalizedMember(fields[found.input].value)
        let outcome = serialized.withUnsafeBufferPointer { input in
            withUnsafeTemporaryAllocation(of: SignatureInputReader.Item.self, capacity: max(1, components.count)) {
                items in
                withUnsafeTemporaryAllocation(
                    of: SignatureInputReader.Parameter.self, capacity: max(1, parameterCount)
                ) { parameters in
                    read(
                        input, label: label, mode: .serialized, components: components, items: items,
                        parameters: parameters, message, context, into: &checked)
                }
            }
        }
        guard let outcome else {
            throw SignatureVerificationError(
                .malformedSignatureInput, "the Signature-Input member \"\(label)\" cannot be read", label: label)
        }
        try outcome.get()
        if configuration.label == nil { checked.label = label }
    }

    /// What the pipeline works on besides the member and the message: where the signature
    /// fields are (plain values, so passing it on counts no references).
    struct Context {
        var fields: UnsafeBufferPointer<HTTPHeaders.Field>
        var found: MessageText.FieldIndices
        var now: Int64
        var baseOnly: ((UnsafeBufferPointer<UInt8>) -> Void)?
    }

    /// Reads the member in `input` and runs the checks on it; `nil` when the reader refuses it.
    private func read(
        _ input: UnsafeBufferPointer<UInt8>,
        label: String,
        mode: SignatureInputReader.Mode,
        components: [ComponentIdentifier]?,
        items: UnsafeMutableBufferPointer<SignatureInputReader.Item>,
        parameters: UnsafeMutableBufferPointer<SignatureInputReader.Parameter>,
        _ message: SignableMessage,
        _ context: Context,
        into checked: inout Checked
    ) -> Result<Void, SignatureVerificationError>? {
        var itemCount = 0
        var parameterCount = 0
        let valueStart = label.utf8.count + 1
        let limits = mode == .received ? configuration.fieldLimits : SignatureInputReader.unlimited
        guard
            SignatureInputReader.read(
                input, valueStart: valueStart, mode: mode, limits: limits, items: items, itemCount: &itemCount,
                parameters: parameters, parameterCount: &parameterCount),
            components == nil || components?.count == itemCount
        else { return nil }
        let member = Member(
            label: label, bytes: input, valueStart: valueStart,
            items: UnsafeBufferPointer(rebasing: items[..<itemCount]),
            parameters: UnsafeBufferPointer(rebasing: parameters[..<parameterCount]), components: components)
        return Result { () throws(SignatureVerificationError) in try verify(member, message, context, into: &checked) }
    }

    /// Whether the field starts with the configured label and `=`.
    private func hasLabelPrefix(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        guard input.count > labelBytes.count + 1, input[labelBytes.count] == UInt8(ascii: "=") else { return false }
        return labelBytes.withUnsafeBufferPointer { label in
            for offset in 0..<label.count where input[offset] != label[offset] { return false }
            return true
        }
    }

    /// Parses the field, selects the member and writes it back in its serialised form.
    /// - Returns: The label, `label=value`, the components and the number of parameters.
    private func normalizedMember(
        _ field: String
    ) throws(SignatureVerificationError) -> (String, [UInt8], [ComponentIdentifier], Int) {
        let dictionary: SFDictionary
        do {
            dictionary = try SFParser.parseDictionary(field, limits: configuration.fieldLimits)
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
        let input: SignatureInput
        var bytes = Array(entry.key.utf8)
        bytes.append(UInt8(ascii: "="))
        do {
            input = try SignatureInput(label: entry.key, member: entry.member)
            try input.appendSerializedValue(to: &bytes)
        } catch {
            throw SignatureVerificationError(.malformedSignatureInput, error.message, label: entry.key)
        }
        return (entry.key, bytes, input.components, input.parameters.parameters.elements.count)
    }

    // MARK: Checks

    /// Every check on a read member, in the order the errors are reported.
    private func verify(
        _ member: Member,
        _ message: SignableMessage,
        _ context: Context,
        into checked: inout Checked
    ) throws(SignatureVerificationError) {
        let label = member.label
        let known = try coveredBits(member)
        if let baseOnly = context.baseOnly {
            try withBase(member, message, keyID: nil) { baseOnly($0) }
            return
        }
        try withUnsafeTemporaryAllocation(byteCount: 72, alignment: 8) {
            buffer throws(SignatureVerificationError) in
            let signatureField = context.found.signature >= 0 ? context.fields[context.found.signature].value : nil
            let signatureLength = try signatureBytes(signatureField, label: label, into: buffer)
            let parameters = try readParameters(member)
            let keyIndex = parameters.keyIndex
            let keyID = keys[keyIndex].id
            let acceptableUntil = try checkTime(
                created: parameters.created, expires: parameters.expires, hasNonce: parameters.nonce != nil,
                label: label, keyID: keyID, now: context.now)
            try checkCoverage(member, known: known, message: message, label: label, keyID: keyID)

            // The MAC, compared in constant time.
            let signature = UnsafeRawBufferPointer(rebasing: buffer[..<min(signatureLength, buffer.count)])
            let valid = try withBase(member, message, keyID: keyID) { base in
                Result { () throws(SigningError) -> Bool in
                    guard signatureLength <= buffer.count else { return false }
                    return try keys[keyIndex].secret.isValidAuthenticationCode(
                        signature, for: UnsafeRawBufferPointer(base))
                }
            }
            let matches: Bool
            switch valid {
            case .success(let value): matches = value
            case .failure(let error): throw failure(.cryptoFailure, error.message, label: label, keyID: keyID)
            }
            guard matches else {
                throw failure(
                    .invalidSignature,
                    "the signature does not match the message; compare the signature bases (swifty-sign base)",
                    label: label, keyID: keyID)
            }

            if context.found.digest >= 0 {
                try checkDigest(
                    context.fields[context.found.digest].value, body: message.body, label: label, keyID: keyID)
            }
            checked.keyIndex = keyIndex
            checked.created = parameters.created ?? 0
            checked.expires = parameters.expires
            checked.acceptableUntil = acceptableUntil
            checked.inputIndex = context.found.input
            // A member read where it lies in the field (no normalised copy, so `components` is
            // nil) keeps its unescaped nonce there, without a string of its own; the replay guard
            // gets it packed from the same bytes (a plain value).
            if let nonce = parameters.nonce {
                if !nonce.escaped {
                    let nonceBytes = UnsafeBufferPointer(rebasing: member.bytes[nonce.value])
                    checked.packedNonce = keyTable.withUnsafeBufferPointer { table in
                        ReplayTable.Key(
                            keyID: UnsafeBufferPointer(rebasing: table[keyRanges[keyIndex].id]), nonce: nonceBytes)
                    }
                }
                if member.components == nil && !nonce.escaped {
                    checked.nonceInField = nonce.value
                } else {
                    checked.nonceText = text(of: nonce, in: member)
                }
            }
        }
    }

    /// The well-known components covered, as bits; throws for a component covered twice.
    private func coveredBits(_ member: Member) throws(SignatureVerificationError) -> UInt32 {
        var known: UInt32 = 0
        var others = 0
        for item in member.items {
            if item.bit == 0 {
                others += 1
            } else {
                guard known & item.bit == 0 else { throw repeated(item, member) }
                known |= item.bit
            }
        }
        if others > 1 {
            let items = member.items
            for index in 0..<items.count where items[index].bit == 0 {
                for earlier in 0..<index where Self.same(member.bytes, items[earlier].text, items[index].text) {
                    throw repeated(items[index], member)
                }
            }
        }
        return known
    }

    private func repeated(_ item: SignatureInputReader.Item, _ member: Member) -> SignatureVerificationError {
        let text = String(decoding: UnsafeBufferPointer(rebasing: member.bytes[item.text]), as: UTF8.self)
        return SignatureVerificationError(
            .malformedSignatureInput, "Signature-Input member \"\(member.label)\" lists \(text) more than once",
            label: member.label)
    }

    /// The required components, and `content-digest` for a message with a body.
    private func checkCoverage(
        _ member: Member,
        known: UInt32,
        message: SignableMessage,
        label: String,
        keyID: String
    ) throws(SignatureVerificationError) {
        if requiredBits.map({ known & $0 != $0 }) ?? true {
            for (index, required) in requiredSerializations.enumerated() {
                let covered = required.withUnsafeBufferPointer { required in
                    member.items.contains { Self.same(member.bytes, $0.text, required) }
                }
                guard covered else {
                    throw failure(
                        .missingComponent,
                        "the signature does not cover \(configuration.requiredComponents[index]), which is required",
                        label: label, keyID: keyID)
                }
            }
        }
        if configuration.requiresContentDigest && message.hasBody
            && known & SignatureInputReader.contentDigestBit == 0
        {
            throw failure(
                .missingComponent, "the message has a body but the signature does not cover \"content-digest\"",
                label: label, keyID: keyID)
        }
    }

    /// The known parameters, with the key they name.
    private struct Parameters {
        var created: Int64?
        var expires: Int64?
        var nonce: SignatureInputReader.Parameter?
        var keyIndex: Int
    }

    /// Reads the known parameters and checks their types, the key, the algorithm and the module.
    private func readParameters(_ member: Member) throws(SignatureVerificationError) -> Parameters {
        let label = member.label
        var created: Int64?
        var expires: Int64?
        var nonce: SignatureInputReader.Parameter?
        var keyID: SignatureInputReader.Parameter?
        var algorithm: SignatureInputReader.Parameter?
        var tag: SignatureInputReader.Parameter?
        var mistyped: Range<Int>?
        for parameter in member.parameters {
            let typed: Bool
            switch parameter.kind {
            case .created:
                typed = parameter.isInteger
                if typed { created = parameter.number }
            case .expires:
                typed = parameter.isInteger
                if typed { expires = parameter.number }
            case .nonce:
                typed = parameter.isString
                if typed { nonce = parameter }
            case .keyID:
                typed = parameter.isString
                if typed { keyID = parameter }
            case .algorithm:
                typed = parameter.isString
                if typed { algorithm = parameter }
            case .tag:
                typed = parameter.isString
                if typed { tag = parameter }
            case .other:
                typed = true
            }
            if !typed && mistyped == nil { mistyped = parameter.key }
        }
        if let mistyped {
            let name = String(decoding: UnsafeBufferPointer(rebasing: member.bytes[mistyped]), as: UTF8.self)
            throw failure(
                .malformedSignatureInput, "the parameter \"\(name)\" of \"\(label)\" has the wrong type", label: label,
                keyID: nil)
        }
        guard let keyID else {
            throw failure(.missingParameter, "the signature has no keyid", label: label, keyID: nil)
        }
        // The key named, and whether `alg` and `tag` agree with it, read from the key table.
        let found = keyTable.withUnsafeBufferPointer { table -> (index: Int, algorithm: Bool, tag: Bool)? in
            guard let index = keyRanges.indices.first(where: { matches(keyID, table, keyRanges[$0].id, in: member) })
            else { return nil }
            let ranges = keyRanges[index]
            let algorithmMatches = algorithm.map { matches($0, table, ranges.algorithm, in: member) } ?? true
            var tagMatches = true
            if let module = ranges.tag { tagMatches = tag.map { matches($0, table, module, in: member) } ?? false }
            return (index, algorithmMatches, tagMatches)
        }
        guard let found else {
            let id = text(of: keyID, in: member)
            throw failure(.unknownKey, "no trusted key has the id \"\(id)\"", label: label, keyID: id)
        }
        let keyIndex = found.index
        if let algorithm, !found.algorithm {
            let key = keys[keyIndex]
            throw failure(
                .algorithmMismatch,
                "alg is \"\(text(of: algorithm, in: member))\" but key \"\(key.id)\" is \(key.algorithm)",
                label: label, keyID: key.id)
        }
        if !found.tag {
            let key = keys[keyIndex]
            let moduleName = key.tag ?? ""
            guard let tag else {
                throw failure(
                    .tagMismatch, "the signature has no tag; key \"\(key.id)\" signs for \"\(moduleName)\"",
                    label: label, keyID: key.id)
            }
            throw failure(
                .tagMismatch,
                "tag is \"\(text(of: tag, in: member))\" but key \"\(key.id)\" signs for \"\(moduleName)\"",
                label: label, keyID: key.id)
        }
        return Parameters(created: created, expires: expires, nonce: nonce, keyIndex: keyIndex)
    }

    /// A string parameter's text, escapes removed.
    private func text(of parameter: SignatureInputReader.Parameter, in member: Member) -> String {
        let bytes = UnsafeBufferPointer(rebasing: member.bytes[parameter.value])
        return parameter.escaped ? SignatureInputReader.unescaped(bytes) : String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a string parameter's text is the bytes at `expected` in `table`.
    private func matches(
        _ parameter: SignatureInputReader.Parameter,
        _ table: UnsafeBufferPointer<UInt8>,
        _ expected: Range<Int>,
        in member: Member
    ) -> Bool {
        let expectedBytes = UnsafeBufferPointer(rebasing: table[expected])
        if parameter.escaped { return text(of: parameter, in: member).utf8.elementsEqual(expectedBytes) }
        return Self.same(member.bytes, parameter.value, expectedBytes)
    }

    /// The time and nonce checks.
    /// - Returns: The last second the signature is acceptable.
    func checkTime(
        created: Int64?,
        expires: Int64?,
        hasNonce: Bool,
        label: String,
        keyID: String,
        now nowSeconds: Int64
    ) throws(SignatureVerificationError) -> Int64 {
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

    func failure(
        _ code: SignatureVerificationError.Code,
        _ message: String,
        label: String,
        keyID: String?
    ) -> SignatureVerificationError {
        SignatureVerificationError(code, message, label: label, keyID: keyID)
    }

    static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Range<Int>, _ second: Range<Int>) -> Bool {
        same(bytes, first, UnsafeBufferPointer(rebasing: bytes[second]))
    }

    static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ other: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard range.count == other.count else { return false }
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != other[offset] { return false }
        return true
    }
}
