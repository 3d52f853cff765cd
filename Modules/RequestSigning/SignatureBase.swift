/// The signature base of RFC 9421 §2.5: one line per covered component, then the
/// `@signature-params` line, LF-separated, with no final line break.
///
/// The signer MACs these bytes; the verifier rebuilds them from the received message. Print
/// ``text`` to debug a mismatch.
public struct SignatureBase: Sendable, CustomStringConvertible {
    /// The bytes that are signed.
    public let bytes: [UInt8]

    /// Builds the base for a signature input over a message.
    /// - Throws: ``SigningError`` with code `missingComponent` or `invalidComponent` naming the
    ///   component that could not be evaluated.
    public init(message: SignableMessage, input: SignatureInput) throws(SigningError) {
        for (index, component) in input.components.enumerated() where input.components[..<index].contains(component) {
            throw SigningError(.invalidComponent, "\(component) is covered more than once")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        try Self.appendComponentLines(input.components, of: message, to: &bytes)
        try input.appendSerializedValue(to: &bytes)
        self.bytes = bytes
    }

    /// Wraps bytes already built.
    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The base as text (it is ASCII unless a covered field holds other bytes).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The same as ``text``.
    public var description: String { text }

    /// Appends the component lines and the `"@signature-params": ` prefix; the caller appends
    /// the serialised inner list.
    static func appendComponentLines(
        _ components: [ComponentIdentifier],
        of message: SignableMessage,
        to output: inout [UInt8]
    ) throws(SigningError) {
        for component in components {
            component.appendSerialized(to: &output)
            output.append(UInt8(ascii: ":"))
            output.append(0x20)
            try message.appendValue(of: component, to: &output)
            output.append(0x0A)
        }
        output.append(contentsOf: signatureParamsPrefix)
    }

    static let signatureParamsPrefix: [UInt8] = Array("\"@signature-params\": ".utf8)
}
