/// The signature base of RFC 9421 §2.5: one line per covered component, then the
/// `@signature-params` line, LF-separated, with no final line break.
///
/// The signer MACs these bytes; the verifier rebuilds them from the received message. Print
/// ``text`` to debug a mismatch.
public struct SignatureBase: Sendable, CustomStringConvertible {
    /// The bytes that are signed.
    public let bytes: [UInt8]

    /// Builds the base for a signature input over a message, as the verifier rebuilds it.
    /// - Throws: ``SigningError`` with code `missingComponent` or `invalidComponent` naming the
    ///   component that could not be evaluated.
    public init(message: SignableMessage, input: SignatureInput) throws(SigningError) {
        for (index, component) in input.components.enumerated() where input.components[..<index].contains(component) {
            throw SigningError(.invalidComponent, "\(component) is covered more than once")
        }
        var member = Array(input.label.utf8)
        member.append(UInt8(ascii: "="))
        try input.appendSerializedValue(to: &member)
        let valueStart = input.label.utf8.count + 1
        let itemCount = input.components.count
        let parameterCount = input.parameters.parameters.elements.count
        let outcome = member.withUnsafeBufferPointer { bytes -> Result<[UInt8], SigningError> in
            withUnsafeTemporaryAllocation(of: SignatureInputReader.Item.self, capacity: max(1, itemCount)) { items in
                withUnsafeTemporaryAllocation(
                    of: SignatureInputReader.Parameter.self, capacity: max(1, parameterCount)
                ) { parameters in
                    var readItems = 0
                    var readParameters = 0
                    guard
                        SignatureInputReader.read(
                            bytes, valueStart: valueStart, mode: .serialized, limits: SignatureInputReader.unlimited,
                            items: items, itemCount: &readItems, parameters: parameters,
                            parameterCount: &readParameters),
                        readItems == itemCount
                    else {
                        return .failure(SigningError(.invalidComponent, "the signature input cannot be serialised"))
                    }
                    let read = SignatureVerifier.Member(
                        label: input.label, bytes: bytes, valueStart: valueStart,
                        items: UnsafeBufferPointer(rebasing: items[..<readItems]),
                        parameters: UnsafeBufferPointer(rebasing: parameters[..<readParameters]),
                        components: input.components)
                    return Self.write(read, of: message) { Array($0) }
                }
            }
        }
        self.bytes = try outcome.get()
    }

    /// Wraps bytes already built.
    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The base as text (it is ASCII unless a covered field holds other bytes).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The same as ``text``.
    public var description: String { text }

    /// Writes the base of a read signature-input member into a stack buffer and hands it to
    /// `body`: one line per covered component, then the `@signature-params` line.
    static func write<R>(
        _ member: SignatureVerifier.Member,
        of message: SignableMessage,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> Result<R, SigningError> {
        message.withParts { parts in
            withUnsafeTemporaryAllocation(byteCount: 1_024, alignment: 16) { buffer in
                var base = ByteWriter(buffer)
                for (index, item) in member.items.enumerated() {
                    base.append(UnsafeBufferPointer(rebasing: member.bytes[item.text]))
                    base.append(": ")
                    let problem = writeValue(
                        of: item, at: index, member: member, parts: parts, message: message, to: &base)
                    if let problem { return .failure(problem) }
                    base.append(0x0A)
                }
                base.append("\"@signature-params\": ")
                base.append(UnsafeBufferPointer(rebasing: member.bytes[member.valueStart...]))
                return .success(body(base.bytes))
            }
        }
    }

    /// Writes one component's value: a simple one from its name's bytes, any other through its
    /// parsed identifier.
    private static func writeValue(
        of item: SignatureInputReader.Item,
        at index: Int,
        member: SignatureVerifier.Member,
        parts: RequestParts,
        message: SignableMessage,
        to base: inout ByteWriter
    ) -> SigningError? {
        let name = UnsafeBufferPointer(rebasing: member.bytes[item.name])
        guard item.isSimple else {
            guard let component = member.components?[index] else {
                return SigningError(.invalidComponent, "a component of \"\(member.label)\" cannot be read")
            }
            var value: [UInt8] = []
            do throws(SigningError) {
                try message.appendValue(of: component, to: &value)
            } catch {
                return error
            }
            base.append(value)
            return nil
        }
        if name[0] == UInt8(ascii: "@") {
            guard let derived = SignatureInputReader.derived(bit: item.bit) else {
                return SigningError(
                    .invalidComponent, "\"\(String(decoding: name, as: UTF8.self))\" is not evaluated here")
            }
            return parts.writeDerived(derived, to: &base)
        }
        return SignableMessage.appendField(name, in: message.headers, to: &base)
    }
}
