/// A component a signature covers (RFC 9421 §2): a derived component such as `@method`, or an
/// HTTP field by its lowercase name, with optional parameters (`sf`, `key`, `bs`, `req`, `tr`,
/// `name`).
///
/// Identifiers are validated when created, so a signer built from them cannot produce a base
/// that a verifier would refuse. Use the constants (``method``, ``authority``, ...) and
/// ``field(_:)``, or parse one with ``init(parsing:)``.
public struct ComponentIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// `@method`, `@authority`, ... or a lowercase field name such as `content-digest`.
    public let name: String
    /// The parameters, in order.
    public let parameters: SFParameters
    /// Which derived component this is, or `nil` for a field.
    let derived: Derived?

    /// The derived components, for dispatch without comparing strings.
    enum Derived: Sendable, Hashable {
        case method, targetURI, authority, scheme, requestTarget, path, query, queryParameter, status

        init?(name: String) {
            switch name {
            case "@method": self = .method
            case "@target-uri": self = .targetURI
            case "@authority": self = .authority
            case "@scheme": self = .scheme
            case "@request-target": self = .requestTarget
            case "@path": self = .path
            case "@query": self = .query
            case "@query-param": self = .queryParameter
            case "@status": self = .status
            default: return nil
            }
        }

        /// The name, `@method` and so on.
        var name: String {
            switch self {
            case .method: "@method"
            case .targetURI: "@target-uri"
            case .authority: "@authority"
            case .scheme: "@scheme"
            case .requestTarget: "@request-target"
            case .path: "@path"
            case .query: "@query"
            case .queryParameter: "@query-param"
            case .status: "@status"
            }
        }
    }

    /// The derived component names RFC 9421 §2.2 defines (without `@signature-params`, which is
    /// never covered).
    public static let derivedNames: Set<String> = [
        "@method", "@target-uri", "@authority", "@scheme", "@request-target", "@path", "@query",
        "@query-param", "@status",
    ]

    /// Creates an identifier, checking the name and parameters against RFC 9421.
    /// - Parameters:
    ///   - name: A derived component name (starting with `@`) or a field name (lowercased here).
    ///   - parameters: Component parameters.
    /// - Throws: ``SigningError`` with code `invalidComponent`.
    public init(_ name: String, parameters: SFParameters = SFParameters()) throws(SigningError) {
        let normalized = name.hasPrefix("@") ? name : Self.lowercasedASCII(name)
        try Self.validate(name: normalized, parameters: parameters)
        self.init(unchecked: normalized, parameters: parameters)
    }

    /// Creates an identifier from an RFC 8941 item: a string (the name) with parameters.
    /// - Throws: ``SigningError`` with code `invalidComponent` for anything that is not a valid
    ///   identifier (including an uppercase field name, which RFC 9421 forbids).
    public init(item: SFItem) throws(SigningError) {
        guard case .string(let name) = item.bareItem else {
            throw SigningError(.invalidComponent, "a covered component must be a quoted string, not \(item.bareItem)")
        }
        guard name.hasPrefix("@") || !name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else {
            throw SigningError(.invalidComponent, "the field name \"\(name)\" must be lowercase")
        }
        try Self.validate(name: name, parameters: item.parameters)
        self.init(unchecked: name, parameters: item.parameters)
    }

    /// Parses an identifier written as in `Signature-Input` (`"@query-param";name="a"`), or
    /// written bare for convenience (`@method`, `content-digest`, `example-dict;key="a"`).
    /// - Throws: ``SigningError`` with code `invalidComponent`.
    public init(parsing text: String) throws(SigningError) {
        var source = text
        while source.hasPrefix(" ") { source.removeFirst() }
        while source.hasSuffix(" ") { source.removeLast() }
        if !source.hasPrefix("\"") {
            let nameEnd = source.firstIndex(of: ";") ?? source.endIndex
            let bareName = String(source[..<nameEnd])
            guard !bareName.isEmpty else { throw SigningError(.invalidComponent, "an empty component name") }
            let name = bareName.hasPrefix("@") ? bareName : Self.lowercasedASCII(bareName)
            source = "\"" + name + "\"" + source[nameEnd...]
        }
        let item: SFItem
        do {
            item = try SFParser.parseItem(source)
        } catch {
            throw SigningError(.invalidComponent, "\"\(text)\" is not a component identifier: \(error)")
        }
        try self.init(item: item)
    }

    init(unchecked name: String, parameters: SFParameters = SFParameters()) {
        self.name = name
        self.parameters = parameters
        self.derived = Derived(name: name)
    }

    /// Appends the RFC 8941 serialisation (`"@query-param";name="a"`), as it appears in a base.
    func appendSerialized(to output: inout [UInt8]) {
        // Names were validated (derived names, or field-name tokens), so they need no escaping.
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: name.utf8)
        output.append(UInt8(ascii: "\""))
        if !parameters.isEmpty {
            // Parameters were validated, so they serialise.
            try? SFSerializer.appendParameters(parameters, to: &output)
        }
    }

    /// The serialisation as bytes.
    var serialized: [UInt8] {
        var bytes: [UInt8] = []
        appendSerialized(to: &bytes)
        return bytes
    }

    /// `"@method"`: the request method.
    public static let method = ComponentIdentifier(unchecked: "@method")
    /// `"@target-uri"`: the full target URI.
    public static let targetURI = ComponentIdentifier(unchecked: "@target-uri")
    /// `"@authority"`: the host (lowercase) and port, without a default port.
    public static let authority = ComponentIdentifier(unchecked: "@authority")
    /// `"@scheme"`: `http` or `https`.
    public static let scheme = ComponentIdentifier(unchecked: "@scheme")
    /// `"@request-target"`: the request target exactly as sent.
    public static let requestTarget = ComponentIdentifier(unchecked: "@request-target")
    /// `"@path"`: the path, still percent-encoded.
    public static let path = ComponentIdentifier(unchecked: "@path")
    /// `"@query"`: the query with its leading `?` (just `?` when there is none).
    public static let query = ComponentIdentifier(unchecked: "@query")
    /// `"@status"`: a response's status code.
    public static let status = ComponentIdentifier(unchecked: "@status")
    /// `"content-digest"`: the RFC 9530 digest field.
    public static let contentDigest = ComponentIdentifier(unchecked: "content-digest")

    /// `"@query-param";name="..."`: one query parameter.
    /// - Parameter name: The parameter name, decoded (it is percent-encoded here as RFC 9421
    ///   §2.2.8 requires).
    public static func queryParameter(_ name: String) -> ComponentIdentifier {
        ComponentIdentifier(unchecked: "@query-param", parameters: ["name": .string(FormURLEncoding.encode(name))])
    }

    /// A header field by name (lowercased).
    /// - Throws: ``SigningError`` with code `invalidComponent` for a name that is not a token.
    public static func field(_ name: String) throws(SigningError) -> ComponentIdentifier {
        try ComponentIdentifier(name)
    }

    /// Whether this is a derived component (its name starts with `@`).
    public var isDerived: Bool { derived != nil }

    /// Whether the component is taken from the related request (`req`).
    public var isFromRequest: Bool { !parameters.isEmpty && parameters["req"] == .boolean(true) }

    /// This identifier without the `req` parameter: how it is evaluated on the related request.
    var withoutRequestParameter: ComponentIdentifier {
        var copy = parameters
        copy["req"] = nil
        return ComponentIdentifier(unchecked: name, parameters: copy)
    }

    /// The serialisation, as in a signature base (`"@query-param";name="a"`).
    public var description: String { String(decoding: serialized, as: UTF8.self) }

    /// Identifiers are equal when they name the same component with the same parameters.
    public static func == (lhs: ComponentIdentifier, rhs: ComponentIdentifier) -> Bool {
        guard lhs.derived == rhs.derived, lhs.parameters.isEmpty == rhs.parameters.isEmpty else { return false }
        if lhs.derived == nil && lhs.name != rhs.name { return false }
        return lhs.parameters.isEmpty || lhs.parameters == rhs.parameters
    }

    /// Hashes the name and parameters.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(parameters)
    }

    /// The base line prefix `"name";params: `.
    var linePrefix: [UInt8] {
        var bytes = serialized
        bytes.append(UInt8(ascii: ":"))
        bytes.append(0x20)
        return bytes
    }

    static func lowercasedASCII(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private static func validate(name: String, parameters: SFParameters) throws(SigningError) {
        let isDerived = name.hasPrefix("@")
        if isDerived {
            guard Derived(name: name) != nil else {
                throw SigningError(.invalidComponent, "\"\(name)\" is not a derived component RFC 9421 defines")
            }
        } else {
            guard !name.isEmpty, name.utf8.allSatisfy(SFCharacters.isFieldNameCharacter) else {
                throw SigningError(.invalidComponent, "\"\(name)\" is not a field name")
            }
        }
        var flags: Set<String> = []
        for parameter in parameters {
            switch parameter.key {
            case "sf", "bs", "tr", "req":
                guard parameter.value == .boolean(true) else {
                    throw SigningError(
                        .invalidComponent, "the \"\(parameter.key)\" parameter of \"\(name)\" takes no value")
                }
                guard parameter.key == "req" || !isDerived else {
                    throw SigningError(.invalidComponent, "\"\(parameter.key)\" applies to fields, not to \"\(name)\"")
                }
                flags.insert(parameter.key)
            case "key":
                guard !isDerived, parameter.value.stringValue != nil else {
                    throw SigningError(.invalidComponent, "\"key\" needs a string value and applies to fields only")
                }
                flags.insert("key")
            case "name":
                guard name == "@query-param", parameter.value.stringValue != nil else {
                    throw SigningError(
                        .invalidComponent, "\"name\" needs a string value and applies to @query-param only")
                }
                flags.insert("name")
            default:
                throw SigningError(.invalidComponent, "\"\(name)\" has the unknown parameter \"\(parameter.key)\"")
            }
        }
        if name == "@query-param" && !flags.contains("name") {
            throw SigningError(.invalidComponent, "\"@query-param\" needs a \"name\" parameter")
        }
        if flags.contains("bs") && (flags.contains("sf") || flags.contains("key")) {
            throw SigningError(.invalidComponent, "\"bs\" cannot be combined with \"sf\" or \"key\" on \"\(name)\"")
        }
    }
}
