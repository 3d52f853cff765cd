public import Foundation
public import ServiceCore

/// Signs HTTP messages with one key (RFC 9421 `hmac-sha256`, RFC 9530 `Content-Digest`).
///
/// Every call signs afresh: a new `created` from the clock, a new random 128-bit nonce, and
/// `expires` a fixed lifetime later. A message with a body gets a `Content-Digest` field, and
/// the signature covers it. The parameters are written in the order `created`, `expires`,
/// `nonce`, `keyid`, `alg`, `tag`. An existing signature with the same label is replaced;
/// signatures with other labels are kept.
///
/// ```swift
/// let signer = try RequestSigner(key: key)
/// let signed = try signer.sign(request)   // adds Content-Digest, Signature-Input, Signature
/// ```
public struct RequestSigner: Sendable {
    /// What the signer covers and which parameters it writes.
    public struct Configuration: Sendable {
        /// The signature's label (an RFC 8941 key), `sig1` by default.
        public var label: String
        /// The components covered, in order: `@method`, `@authority`, `@path`, `@query` by default.
        public var components: [ComponentIdentifier]
        /// Whether a message with a body gets a `Content-Digest` field, covered after the
        /// components above.
        public var coversContentDigest: Bool
        /// The digest algorithm for `Content-Digest`.
        public var digestAlgorithm: DigestAlgorithm
        /// How long a signature stays valid (`expires` = `created` + this, whole seconds), or
        /// `nil` to send no `expires`.
        public var lifetime: Duration?
        /// Whether to send a random `nonce`.
        public var includesNonce: Bool
        /// Whether to send `alg` (informational: verifiers take the algorithm from their key).
        public var includesAlgorithm: Bool

        /// Creates a configuration.
        public init(
            label: String = "sig1",
            components: [ComponentIdentifier] = [.method, .authority, .path, .query],
            coversContentDigest: Bool = true,
            digestAlgorithm: DigestAlgorithm = .sha256,
            lifetime: Duration? = .seconds(60),
            includesNonce: Bool = true,
            includesAlgorithm: Bool = true
        ) {
            self.label = label
            self.components = components
            self.coversContentDigest = coversContentDigest
            self.digestAlgorithm = digestAlgorithm
            self.lifetime = lifetime
            self.includesNonce = includesNonce
            self.includesAlgorithm = includesAlgorithm
        }
    }

    /// The key signatures are made with.
    public let key: SigningKey
    /// What is covered and sent.
    public let configuration: Configuration
    /// The source of `created`.
    let clock: @Sendable () -> Date
    /// The covered components without and with `content-digest`.
    let plainComponents: [ComponentIdentifier]
    let digestComponents: [ComponentIdentifier]
    /// How each line of the base is made, without and with `content-digest`.
    let plainPlan: Plan
    let digestPlan: Plan
    /// `;keyid="..."[;alg="..."][;tag="..."]`, written once.
    let keyParameterBytes: [UInt8]
    /// `label=`.
    let labelBytes: [UInt8]
    /// Whole seconds of ``Configuration/lifetime``.
    let lifetimeSeconds: Int64?

    /// The precomputed lines of a signature base for one component list.
    struct Plan: Sendable {
        /// One line: its `"name": ` prefix and where its value comes from.
        struct Step: Sendable {
            var prefix: [UInt8]
            var source: Source
        }

        /// Where a line's value comes from when signing an ``HTTPRequest``.
        enum Source: Sendable {
            case method, authority, scheme, targetURI, requestTarget, path, query
            /// A header field without parameters, by its lowercase name.
            case field(String)
            /// Anything else, evaluated on a ``SignableMessage``.
            case other(ComponentIdentifier)
        }

        var steps: [Step]
        /// `("@method" ...)`.
        var listBytes: [UInt8]
        /// Whether some step needs a ``SignableMessage``.
        var needsMessage: Bool

        init(_ components: [ComponentIdentifier]) {
            steps = components.map { component in
                let source: Source
                switch (component.derived, component.parameters.isEmpty) {
                case (.method, true): source = .method
                case (.authority, true): source = .authority
                case (.scheme, true): source = .scheme
                case (.targetURI, true): source = .targetURI
                case (.requestTarget, true): source = .requestTarget
                case (.path, true): source = .path
                case (.query, true): source = .query
                case (nil, true): source = .field(component.name)
                default: source = .other(component)
                }
                return Step(prefix: component.linePrefix, source: source)
            }
            var list: [UInt8] = [UInt8(ascii: "(")]
            for (index, component) in components.enumerated() {
                if index > 0 { list.append(0x20) }
                component.appendSerialized(to: &list)
            }
            list.append(UInt8(ascii: ")"))
            listBytes = list
            needsMessage = steps.contains {
                if case .other = $0.source { return true }
                return false
            }
        }
    }

    /// Creates a signer.
    /// - Parameters:
    ///   - key: The key to sign with; its `tag` is sent as `tag`.
    ///   - configuration: What to cover and send.
    ///   - clock: The time source for `created`; the system clock unless given (tests pass a
    ///     fixed one).
    /// - Throws: ``SigningError`` with code `invalidConfiguration` for an invalid label, a
    ///   repeated component, or a negative lifetime.
    public init(
        key: SigningKey,
        configuration: Configuration = Configuration(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(SigningError) {
        var label: [UInt8] = []
        do {
            try SFSerializer.appendKey(configuration.label, to: &label)
        } catch {
            throw SigningError(
                .invalidConfiguration, "the label \"\(configuration.label)\" is not a structured-field key")
        }
        label.append(UInt8(ascii: "="))
        let plain = configuration.components
        for (index, component) in plain.enumerated() where plain[..<index].contains(component) {
            throw SigningError(.invalidConfiguration, "\(component) is listed more than once")
        }
        let digest =
            !configuration.coversContentDigest || plain.contains(.contentDigest) ? plain : plain + [.contentDigest]
        var seconds: Int64?
        if let lifetime = configuration.lifetime {
            let whole = lifetime.components.seconds
            guard whole >= 0 else { throw SigningError(.invalidConfiguration, "the signature lifetime is negative") }
            seconds = whole
        }
        var keyParameters = SFParameters()
        keyParameters["keyid"] = .string(key.id)
        if configuration.includesAlgorithm { keyParameters["alg"] = .string(key.algorithm.rawValue) }
        if let tag = key.tag { keyParameters["tag"] = .string(tag) }
        var keyBytes: [UInt8] = []
        // The key validated its id and tag as printable ASCII, so they serialise.
        try? SFSerializer.appendParameters(keyParameters, to: &keyBytes)

        self.key = key
        self.configuration = configuration
        self.clock = clock
        self.plainComponents = plain
        self.digestComponents = digest
        self.plainPlan = Plan(plain)
        self.digestPlan = Plan(digest)
        self.keyParameterBytes = keyBytes
        self.labelBytes = label
        self.lifetimeSeconds = seconds
    }

    /// Signs a request: returns it with `Content-Digest` (when it has a body),
    /// `Signature-Input` and `Signature` set.
    ///
    /// This is the middleware's path: the base is built straight from the URL's bytes and the
    /// header fields, into one buffer.
    /// - Throws: ``SigningError``: the URL has no host, a covered field is missing, OpenSSL failed.
    public func sign(_ request: HTTPRequest) throws(SigningError) -> HTTPRequest {
        var signed = request
        let digested = configuration.coversContentDigest && !(request.body?.isEmpty ?? true)
        if digested, let body = request.body {
            let value = try digestFieldValue(body)
            if MessageText.contains(signed.headers, lowercaseName: "content-digest") {
                signed.headers.replaceOrAdd(name: "Content-Digest", value: value)
            } else {
                signed.headers.add(name: "Content-Digest", value: value)
            }
        }
        let plan = digested ? digestPlan : plainPlan
        var inner = plan.listBytes
        inner.reserveCapacity(inner.count + 96 + keyParameterBytes.count)
        try appendParameters(to: &inner, created: nil, nonce: nil)

        let message = plan.needsMessage ? try SignableMessage(signed) : nil
        var base: [UInt8] = []
        base.reserveCapacity(384 + inner.count)
        let url = request.url.absoluteString
        let method = request.method.rawValue
        let headers = signed.headers
        let problem: SigningError? = ByteText.withBytes(url) { bytes in
            guard let uri = URIRanges(bytes), !uri.authority.isEmpty else {
                return SigningError(.invalidMessage, "the URL has no scheme and host to sign: \(url)")
            }
            let scheme = UnsafeBufferPointer(rebasing: bytes[uri.scheme])
            let authority = UnsafeBufferPointer(rebasing: bytes[uri.authority])
            let path = UnsafeBufferPointer(rebasing: bytes[uri.path])
            let query = uri.query.map { UnsafeBufferPointer(rebasing: bytes[$0]) }
            for step in plan.steps {
                base.append(contentsOf: step.prefix)
                switch step.source {
                case .method:
                    guard ByteText.withBytes(method, { ByteText.isVisible($0) }) else {
                        return SigningError(.invalidComponent, "the method contains a space or control character")
                    }
                    base.append(contentsOf: method.utf8)
                case .authority:
                    Self.appendAuthority(authority, scheme: scheme, to: &base)
                case .scheme:
                    ByteText.appendLowercased(scheme, to: &base)
                case .targetURI:
                    ByteText.appendLowercased(scheme, to: &base)
                    base.append(contentsOf: "://".utf8)
                    Self.appendAuthority(authority, scheme: scheme, to: &base)
                    Self.appendTarget(path: path, query: query, to: &base)
                case .requestTarget:
                    Self.appendTarget(path: path, query: query, to: &base)
                case .path:
                    if path.isEmpty { base.append(UInt8(ascii: "/")) } else { base.append(contentsOf: path) }
                case .query:
                    base.append(UInt8(ascii: "?"))
                    if let query { base.append(contentsOf: query) }
                case .field(let name):
                    switch SignableMessage.appendCombinedValue(of: name, in: headers, to: &base) {
                    case .appended: break
                    case .absent: return SigningError(.missingComponent, "the message has no header field \"\(name)\"")
                    case .invalid(let reason): return SigningError(.invalidComponent, "the field \"\(name)\" contains \(reason)")
                    }
                case .other(let component):
                    do throws(SigningError) {
                        try message?.appendValue(of: component, to: &base)
                    } catch {
                        return error
                    }
                }
                base.append(0x0A)
            }
            return nil
        }
        if let problem { throw problem }
        base.append(contentsOf: SignatureBase.signatureParamsPrefix)
        base.append(contentsOf: inner)
        let signature = try signatureField(over: base)
        inner.insert(contentsOf: labelBytes, at: 0)
        Self.setFields(input: inner, signature: signature, label: configuration.label, in: &signed.headers)
        return signed
    }

    /// Signs a message in place and returns what was signed.
    /// - Parameters:
    ///   - message: The message; its headers gain `Content-Digest` (when it has a body),
    ///     `Signature-Input` and `Signature`.
    ///   - created: The creation time to send; the clock's time when `nil`.
    ///   - nonce: The nonce to send; a fresh random one when `nil` (if nonces are configured).
    /// - Returns: The signature input (label, components, parameters).
    /// - Throws: ``SigningError``.
    @discardableResult
    public func sign(
        _ message: inout SignableMessage,
        created: Date? = nil,
        nonce: String? = nil
    ) throws(SigningError) -> SignatureInput {
        let (components, inner) = try prepare(&message, created: created, nonce: nonce)
        var base: [UInt8] = []
        base.reserveCapacity(384 + inner.count)
        try SignatureBase.appendComponentLines(components, of: message, to: &base)
        base.append(contentsOf: inner)
        let signature = try signatureField(over: base)
        var input = labelBytes
        input.append(contentsOf: inner)
        Self.setFields(input: input, signature: signature, label: configuration.label, in: &message.headers)
        return try signatureInput(components: components, inner: inner)
    }

    /// The signature base this signer would sign for `message`, without signing (for debugging;
    /// the message's headers gain `Content-Digest` as signing would add it).
    /// - Throws: ``SigningError``.
    public func signatureBase(
        for message: inout SignableMessage,
        created: Date? = nil,
        nonce: String? = nil
    ) throws(SigningError) -> SignatureBase {
        let (components, inner) = try prepare(&message, created: created, nonce: nonce)
        var base: [UInt8] = []
        try SignatureBase.appendComponentLines(components, of: message, to: &base)
        base.append(contentsOf: inner)
        return SignatureBase(bytes: base)
    }

    // MARK: Parts

    /// Adds `Content-Digest` when needed and writes the inner list with its parameters.
    private func prepare(
        _ message: inout SignableMessage,
        created: Date?,
        nonce: String?
    ) throws(SigningError) -> (components: [ComponentIdentifier], inner: [UInt8]) {
        let digested = configuration.coversContentDigest && message.hasBody
        if digested, let body = message.body {
            message.headers.replaceOrAdd(name: "Content-Digest", value: try digestFieldValue(body))
        }
        let plan = digested ? digestPlan : plainPlan
        var inner = plan.listBytes
        try appendParameters(to: &inner, created: created, nonce: nonce)
        return (digested ? digestComponents : plainComponents, inner)
    }

    /// The `Content-Digest` value for a body.
    private func digestFieldValue(_ body: Data) throws(SigningError) -> String {
        let digest = try configuration.digestAlgorithm.hash(body)
        return ContentDigest.fieldValue(digest: digest, algorithm: configuration.digestAlgorithm)
    }

    /// Appends `;created=...;expires=...;nonce="...";keyid=...`.
    private func appendParameters(to inner: inout [UInt8], created: Date?, nonce: String?) throws(SigningError) {
        let time = created ?? clock()
        let createdSeconds = Int64(time.timeIntervalSince1970.rounded(.down))
        inner.append(contentsOf: ";created=".utf8)
        SFSerializer.appendDecimalDigits(of: createdSeconds, to: &inner)
        if let lifetimeSeconds {
            inner.append(contentsOf: ";expires=".utf8)
            SFSerializer.appendDecimalDigits(of: createdSeconds + lifetimeSeconds, to: &inner)
        }
        if let nonce {
            guard !nonce.isEmpty, nonce.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
                throw SigningError(.invalidConfiguration, "a nonce must be non-empty printable ASCII")
            }
            inner.append(contentsOf: ";nonce=".utf8)
            // Checked above as printable ASCII, so it serialises.
            try? SFSerializer.appendString(nonce, to: &inner)
        } else if configuration.includesNonce {
            inner.append(contentsOf: ";nonce=\"".utf8)
            try NonceSource.appendNonce(to: &inner)
            inner.append(UInt8(ascii: "\""))
        }
        inner.append(contentsOf: keyParameterBytes)
    }

    /// `label=:base64(MAC):`.
    private func signatureField(over base: [UInt8]) throws(SigningError) -> [UInt8] {
        var field = labelBytes
        field.reserveCapacity(labelBytes.count + 4 + (key.algorithm.macLength + 2) / 3 * 4)
        field.append(UInt8(ascii: ":"))
        try withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { (mac) throws(SigningError) in
            let length = try base.withUnsafeBytes { bytes in
                Result { () throws(SigningError) in try key.secret.authenticate(bytes, into: mac) }
            }.get()
            Base64.encode(UnsafeRawBufferPointer(rebasing: mac[..<length]), into: &field)
        }
        field.append(UInt8(ascii: ":"))
        return field
    }

    /// The signature input that `inner` (the serialised inner list) describes.
    private func signatureInput(components: [ComponentIdentifier], inner: [UInt8]) throws(SigningError) -> SignatureInput {
        let text = String(decoding: configuration.label.utf8 + [UInt8(ascii: "=")] + inner, as: UTF8.self)
        guard let input = try SignatureInput.parse(fieldValue: text).first else {
            throw SigningError(.invalidConfiguration, "the signature input could not be read back")
        }
        return input
    }

    private static func appendAuthority(
        _ authority: UnsafeBufferPointer<UInt8>,
        scheme: UnsafeBufferPointer<UInt8>,
        to output: inout [UInt8]
    ) {
        let length = ByteText.lengthWithoutDefaultPort(authority, scheme: scheme)
        ByteText.appendLowercased(UnsafeBufferPointer(rebasing: authority[0..<length]), to: &output)
    }

    private static func appendTarget(
        path: UnsafeBufferPointer<UInt8>,
        query: UnsafeBufferPointer<UInt8>?,
        to output: inout [UInt8]
    ) {
        if path.isEmpty { output.append(UInt8(ascii: "/")) } else { output.append(contentsOf: path) }
        if let query {
            output.append(UInt8(ascii: "?"))
            output.append(contentsOf: query)
        }
    }

    /// Adds `Signature-Input` and `Signature`, replacing a member with the same label and keeping
    /// the others.
    static func setFields(input: [UInt8], signature: [UInt8], label: String, in headers: inout HTTPHeaders) {
        let inputText = String(decoding: input, as: UTF8.self)
        let signatureText = String(decoding: signature, as: UTF8.self)
        if !MessageText.contains(headers, lowercaseName: "signature-input")
            && !MessageText.contains(headers, lowercaseName: "signature")
        {
            headers.add(name: "Signature-Input", value: inputText)
            headers.add(name: "Signature", value: signatureText)
            return
        }
        setMember(inputText, label: label, field: "Signature-Input", in: &headers)
        setMember(signatureText, label: label, field: "Signature", in: &headers)
    }

    /// Puts `member` (`label=...`) into a dictionary field, replacing a member with the same
    /// label and keeping the others.
    static func setMember(_ member: String, label: String, field: String, in headers: inout HTTPHeaders) {
        let existing = headers.values(for: field)
        guard !existing.isEmpty else {
            headers.add(name: field, value: member)
            return
        }
        var kept: [String] = []
        if var dictionary = try? SFParser.parseDictionary(existing.joined(separator: ", ")) {
            dictionary[label] = nil
            if !dictionary.isEmpty, let text = try? dictionary.serialized() { kept.append(text) }
        }
        kept.append(member)
        headers.replaceOrAdd(name: field, value: kept.joined(separator: ", "))
    }
}
