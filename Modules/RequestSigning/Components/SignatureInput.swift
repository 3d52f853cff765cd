/// One signature's description in a `Signature-Input` field: its label, the components it
/// covers in order, and its parameters.
public struct SignatureInput: Hashable, Sendable {
    /// The dictionary key naming the signature, for example `sig1`.
    public var label: String
    /// The covered components, in the order the base lists them.
    public var components: [ComponentIdentifier]
    /// The parameters.
    public var parameters: SignatureParameters

    /// Creates a signature input.
    public init(label: String, components: [ComponentIdentifier], parameters: SignatureParameters) {
        self.label = label
        self.components = components
        self.parameters = parameters
    }

    /// The inner list `("@method" ...);created=...`: the member value in `Signature-Input`
    /// and the value of the base's `@signature-params` line.
    /// - Throws: ``SigningError`` with code `invalidComponent` for a parameter value that cannot
    ///   be serialised.
    public func serializedValue() throws(SigningError) -> String {
        var bytes: [UInt8] = []
        try appendSerializedValue(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The dictionary member `label=(...)...` as it appears in `Signature-Input`.
    /// - Throws: ``SigningError`` with code `invalidComponent` for an invalid label or parameter.
    public func serializedMember() throws(SigningError) -> String {
        var bytes: [UInt8] = []
        do {
            try SFSerializer.appendKey(label, to: &bytes)
        } catch {
            throw SigningError(.invalidConfiguration, "the label \"\(label)\" is not a structured-field key")
        }
        bytes.append(UInt8(ascii: "="))
        try appendSerializedValue(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func appendSerializedValue(to bytes: inout [UInt8]) throws(SigningError) {
        bytes.append(UInt8(ascii: "("))
        for (index, component) in components.enumerated() {
            if index > 0 { bytes.append(0x20) }
            component.appendSerialized(to: &bytes)
        }
        bytes.append(UInt8(ascii: ")"))
        do {
            try SFSerializer.appendParameters(parameters.parameters, to: &bytes)
        } catch {
            throw SigningError(.invalidComponent, "a signature parameter cannot be serialised: \(error.message)")
        }
    }

    /// Parses every member of a `Signature-Input` field value (join repeated field lines with
    /// `", "` first).
    /// - Parameters:
    ///   - fieldValue: The field value.
    ///   - limits: Size limits for the structured-field parser.
    /// - Throws: ``SigningError`` with code `invalidMessage` naming what is malformed (the
    ///   structured field, a member that is not an inner list, an invalid or repeated component).
    public static func parse(
        fieldValue: String,
        limits: SFParser.Limits = .default
    ) throws(SigningError) -> [SignatureInput] {
        let dictionary: SFDictionary
        do {
            dictionary = try SFParser.parseDictionary(fieldValue, limits: limits)
        } catch {
            throw SigningError(.invalidMessage, "Signature-Input is not a structured-field dictionary: \(error)")
        }
        var inputs: [SignatureInput] = []
        inputs.reserveCapacity(dictionary.count)
        for entry in dictionary.entries {
            inputs.append(try SignatureInput(label: entry.key, member: entry.member))
        }
        return inputs
    }

    /// Reads one dictionary member.
    init(label: String, member: SFMember) throws(SigningError) {
        guard case .innerList(let list) = member else {
            throw SigningError(.invalidMessage, "Signature-Input member \"\(label)\" is not an inner list")
        }
        var components: [ComponentIdentifier] = []
        components.reserveCapacity(list.items.count)
        for item in list.items {
            let component: ComponentIdentifier
            do {
                component = try ComponentIdentifier(item: item)
            } catch {
                throw SigningError(.invalidMessage, "Signature-Input member \"\(label)\": \(error.message)")
            }
            guard !components.contains(component) else {
                throw SigningError(
                    .invalidMessage, "Signature-Input member \"\(label)\" lists \(component) more than once")
            }
            components.append(component)
        }
        self.init(label: label, components: components, parameters: SignatureParameters(list.parameters))
    }
}
