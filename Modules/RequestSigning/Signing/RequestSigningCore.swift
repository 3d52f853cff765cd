import HTTPTypes
import ServiceCore

/// What ``RequestSigner`` reads when it signs, in one shared object: the closures that build a
/// base capture this one reference rather than copying the signer.
///
/// Immutable after creation, hence `Sendable`.
final class RequestSigningCore: Sendable {
    let key: SigningKey
    /// `;keyid="..."[;alg="..."][;tag="..."]`, written once.
    let keyParameterBytes: [UInt8]
    /// `label=`.
    let labelBytes: [UInt8]
    /// `label=:`.
    let signaturePrefixBytes: [UInt8]
    /// Whole seconds of the lifetime.
    let lifetimeSeconds: Int64?
    /// Whether a random nonce is sent.
    let includesNonce: Bool

    init(
        key: SigningKey,
        keyParameterBytes: [UInt8],
        labelBytes: [UInt8],
        lifetimeSeconds: Int64?,
        includesNonce: Bool
    ) {
        self.key = key
        self.keyParameterBytes = keyParameterBytes
        self.labelBytes = labelBytes
        self.signaturePrefixBytes = labelBytes + [UInt8(ascii: ":")]
        self.lifetimeSeconds = lifetimeSeconds
        self.includesNonce = includesNonce
    }

    typealias Plan = RequestSigner.Plan

    /// The two field values, and the nonce sent when asked for.
    struct Signed {
        var input: String
        var signature: String
        var nonce: String?
    }

    /// Builds the base and signs it.
    func sign(
        _ plan: Plan,
        parts: RequestParts,
        fields: UnsafeBufferPointer<HTTPHeaders.Field>,
        message: SignableMessage?,
        created: Int64,
        nonce: String?,
        returningNonce: Bool
    ) -> Result<Signed, SigningError> {
        withBase(plan, parts: parts, fields: fields, message: message, created: created, nonce: nonce) {
            base, layout in
            signatureFields(
                base: base, inner: UnsafeBufferPointer(rebasing: base[layout.inner...]),
                nonce: returningNonce ? layout.nonce.map { UnsafeBufferPointer(rebasing: base[$0]) } : nil)
        }.flatMap { $0 }
    }

    /// Where the `@signature-params` value and the nonce are in a base.
    struct Layout {
        var inner: Int
        var nonce: Range<Int>?
    }

    /// Writes the base into a stack buffer and hands it to `body`: the component lines, then
    /// the `@signature-params` line.
    func withBase<R>(
        _ plan: Plan,
        parts: RequestParts,
        fields: UnsafeBufferPointer<HTTPHeaders.Field>,
        message: SignableMessage?,
        created: Int64,
        nonce: String?,
        _ body: (UnsafeBufferPointer<UInt8>, Layout) -> R
    ) -> Result<R, SigningError> {
        withUnsafeTemporaryAllocation(byteCount: 1_024, alignment: 16) { buffer in
            var base = ByteWriter(buffer)
            if let problem = Self.writeLines(plan, parts: parts, fields: fields, message: message, to: &base) {
                return .failure(problem)
            }
            base.append("\"@signature-params\": ")
            let inner = base.count
            let nonceRange: Range<Int>?
            do throws(SigningError) {
                nonceRange = try writeParameters(plan, created: created, nonce: nonce, to: &base)
            } catch {
                return .failure(error)
            }
            return .success(body(base.bytes, Layout(inner: inner, nonce: nonceRange)))
        }
    }

    /// Writes the component lines of the base.
    private static func writeLines(
        _ plan: Plan,
        parts: RequestParts,
        fields: UnsafeBufferPointer<HTTPHeaders.Field>,
        message: SignableMessage?,
        to base: inout ByteWriter
    ) -> SigningError? {
        plan.table.withUnsafeBufferPointer { table in
            for step in plan.steps {
                base.append(UnsafeBufferPointer(rebasing: table[step.prefix]))
                let problem: SigningError?
                switch step.kind {
                case .derived:
                    problem = parts.writeDerived(step.derived, to: &base)
                case .field:
                    problem = SignableMessage.appendField(
                        UnsafeBufferPointer(rebasing: table[step.name]), in: fields, to: &base)
                case .other:
                    problem = writeOther(plan.others[step.name.lowerBound], message, to: &base)
                }
                if let problem { return problem }
                base.append(0x0A)
            }
            return nil
        }
    }

    /// Writes the value of a component with parameters (or `@query-param`, `@status`).
    private static func writeOther(
        _ component: ComponentIdentifier,
        _ message: SignableMessage?,
        to base: inout ByteWriter
    ) -> SigningError? {
        var value: [UInt8] = []
        do throws(SigningError) {
            try message?.appendValue(of: component, to: &value)
        } catch {
            return error
        }
        base.append(value)
        return nil
    }

    /// Writes the inner list and the parameters (`created`, `expires`, `nonce`, key parameters).
    /// - Returns: Where the nonce's text is, when one was written.
    private func writeParameters(
        _ plan: Plan,
        created: Int64,
        nonce: String?,
        to base: inout ByteWriter
    ) throws(SigningError) -> Range<Int>? {
        plan.table.withUnsafeBufferPointer { base.append(UnsafeBufferPointer(rebasing: $0[plan.list])) }
        base.append(";created=")
        base.append(decimal: created)
        if let lifetimeSeconds {
            base.append(";expires=")
            base.append(decimal: created + lifetimeSeconds)
        }
        guard nonce != nil || includesNonce else {
            base.append(keyParameterBytes)
            return nil
        }
        base.append(";nonce=\"")
        let start = base.count
        if let nonce {
            // Checked by `prepare` as printable ASCII; quotes and backslashes are escaped.
            ByteText.withBytes(nonce) { text in
                for byte in text {
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { base.append(UInt8(ascii: "\\")) }
                    base.append(byte)
                }
            }
        } else {
            try NonceSource.appendNonce(to: &base)
        }
        let end = base.count
        base.append(UInt8(ascii: "\""))
        base.append(keyParameterBytes)
        return start..<end
    }

    /// The `Signature-Input` and `Signature` values: `label=inner` and `label=:MAC:`, and the
    /// nonce's text when `nonce` is given.
    private func signatureFields(
        base: UnsafeBufferPointer<UInt8>,
        inner: UnsafeBufferPointer<UInt8>,
        nonce: UnsafeBufferPointer<UInt8>?
    ) -> Result<Signed, SigningError> {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { mac in
            let length: Int
            do throws(SigningError) {
                length = try key.secret.authenticate(UnsafeRawBufferPointer(base), into: mac)
            } catch {
                return .failure(error)
            }
            let signature = Base64.string(
                prefix: signaturePrefixBytes, encoding: UnsafeRawBufferPointer(rebasing: mac[..<length]),
                suffix: UInt8(ascii: ":"))
            let input = String(unsafeUninitializedCapacity: labelBytes.count + inner.count) { buffer in
                let start = buffer.baseAddress!
                labelBytes.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: $0.count) }
                (start + labelBytes.count).update(from: inner.baseAddress!, count: inner.count)
                return labelBytes.count + inner.count
            }
            let nonceText = nonce.map { SignatureInputReader.unescaped($0) }
            return .success(Signed(input: input, signature: signature, nonce: nonceText))
        }
    }
}
