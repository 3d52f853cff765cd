public import Foundation
public import HTTPTypes
import ServiceCore

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
    /// `label=:`.
    let signaturePrefixBytes: [UInt8]
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
            /// A header field without parameters, by its lowercase name's bytes.
            case field([UInt8])
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
                case (nil, true): source = .field(Array(component.name.utf8))
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
        clock: @escaping @Sendable () -> Date = SystemClock.now
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
        self.signaturePrefixBytes = label + [UInt8(ascii: ":")]
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
            // Checked first: appending to a list without the field is cheaper than a replace.
            if MessageText.contains(signed.headers, lowercaseName: "content-digest") {
                signed.headers.replaceOrAdd(name: "Content-Digest", value: value)
            } else {
                signed.headers.add(name: "Content-Digest", value: value)
            }
        }
        let plan = digested ? digestPlan : plainPlan
        let message = plan.needsMessage ? try SignableMessage(signed) : nil
        let created = Int64(clock().timeIntervalSince1970.rounded(.down))
        let url = request.urlString
        let method = request.method.rawValue
        let headers = signed.headers
        let outcome: Result<(input: String, signature: String), SigningError> = ByteText.withBytes(url) { bytes in
            withUnsafeTemporaryAllocation(byteCount: 1_024, alignment: 16) { buffer in
                var base = ByteWriter(buffer)
                if let problem = Self.writeLines(
                    plan, url: bytes, method: method, headers: headers, message: message, to: &base)
                {
                    return .failure(problem)
                }
                base.append("\"@signature-params\": ")
                let innerStart = base.count
                do throws(SigningError) {
                    try writeParameters(plan, created: created, to: &base)
                } catch {
                    return .failure(error)
                }
                return signatureFields(base: base.bytes, inner: base.bytes(from: innerStart))
            }
        }
        let fields = try outcome.get()
        Self.setFields(
            input: fields.input, signature: fields.signature, label: configuration.label, in: &signed.headers)
        return signed
    }

    /// Writes the component lines of the base from the URL's bytes and the header fields.
    private static func writeLines(
        _ plan: Plan,
        url bytes: UnsafeBufferPointer<UInt8>,
        method: String,
        headers: HTTPHeaders,
        message: SignableMessage?,
        to base: inout ByteWriter
    ) -> SigningError? {
        guard let uri = URIRanges(bytes), !uri.authority.isEmpty else {
            return SigningError(
                .invalidMessage, "the URL has no scheme and host to sign: \(String(decoding: bytes, as: UTF8.self))")
        }
        let scheme = UnsafeBufferPointer(rebasing: bytes[uri.scheme])
        let authority = UnsafeBufferPointer(rebasing: bytes[uri.authority])
        let path = UnsafeBufferPointer(rebasing: bytes[uri.path])
        let query = uri.query.map { UnsafeBufferPointer(rebasing: bytes[$0]) }
        for step in plan.steps {
            base.append(step.prefix)
            switch step.source {
            case .method:
                let visible = ByteText.withBytes(method) { method in
                    guard ByteText.isVisible(method) else { return false }
                    base.append(method)
                    return true
                }
                guard visible else {
                    return SigningError(.invalidComponent, "the method contains a space or control character")
                }
            case .authority:
                writeAuthority(authority, scheme: scheme, to: &base)
            case .scheme:
                base.appendLowercased(scheme)
            case .targetURI:
                base.appendLowercased(scheme)
                base.append("://")
                writeAuthority(authority, scheme: scheme, to: &base)
                writeTarget(path: path, query: query, to: &base)
            case .requestTarget:
                writeTarget(path: path, query: query, to: &base)
            case .path:
                if path.isEmpty { base.append(UInt8(ascii: "/")) } else { base.append(path) }
            case .query:
                base.append(UInt8(ascii: "?"))
                if let query { base.append(query) }
            case .field(let name):
                let outcome = name.withUnsafeBufferPointer { SignableMessage.writeField($0, in: headers, to: &base) }
                switch outcome {
                case .appended: break
                case .absent:
                    return SigningError(
                        .missingComponent,
                        "the message has no header field \"\(String(decoding: name, as: UTF8.self))\"")
                case .invalid(let reason):
                    return SigningError(
                        .invalidComponent, "the field \"\(String(decoding: name, as: UTF8.self))\" contains \(reason)")
                }
            case .other(let component):
                var value: [UInt8] = []
                do throws(SigningError) {
                    try message?.appendValue(of: component, to: &value)
                } catch {
                    return error
                }
                base.append(value)
            }
            base.append(0x0A)
        }
        return nil
    }

    /// Writes the inner list and the parameters (`created`, `expires`, `nonce`, key parameters).
    private func writeParameters(_ plan: Plan, created: Int64, to base: inout ByteWriter) throws(SigningError) {
        base.append(plan.listBytes)
        base.append(";created=")
        base.append(decimal: created)
        if let lifetimeSeconds {
            base.append(";expires=")
            base.append(decimal: created + lifetimeSeconds)
        }
        if configuration.includesNonce {
            base.append(";nonce=\"")
            try NonceSource.appendNonce(to: &base)
            base.append(UInt8(ascii: "\""))
        }
        base.append(keyParameterBytes)
    }

    /// The `Signature-Input` and `Signature` values: `label=inner` and `label=:MAC:`.
    private func signatureFields(
        base: UnsafeBufferPointer<UInt8>,
        inner: UnsafeBufferPointer<UInt8>
    ) -> Result<(input: String, signature: String), SigningError> {
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
            return .success((input, signature))
        }
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
        let (components, inner, parameters) = try prepare(&message, created: created, nonce: nonce)
        var base: [UInt8] = []
        base.reserveCapacity(384 + inner.count)
        try SignatureBase.appendComponentLines(components, of: message, to: &base)
        base.append(contentsOf: inner)
        let fields = try base.withUnsafeBufferPointer { base in
            inner.withUnsafeBufferPointer { inner in signatureFields(base: base, inner: inner) }
        }.get()
        Self.setFields(
            input: fields.input, signature: fields.signature, label: configuration.label, in: &message.headers)
        return SignatureInput(label: configuration.label, components: components, parameters: parameters)
    }

    /// The signature base this signer would sign for `message`, without signing (for debugging;
    /// the message's headers gain `Content-Digest` as signing would add it).
    /// - Throws: ``SigningError``.
    public func signatureBase(
        for message: inout SignableMessage,
        created: Date? = nil,
        nonce: String? = nil
    ) throws(SigningError) -> SignatureBase {
        let (components, inner, _) = try prepare(&message, created: created, nonce: nonce)
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
    ) throws(SigningError) -> (components: [ComponentIdentifier], inner: [UInt8], parameters: SignatureParameters) {
        let digested = configuration.coversContentDigest && message.hasBody
        if digested, let body = message.body {
            message.headers.replaceOrAdd(name: "Content-Digest", value: try digestFieldValue(body))
        }
        let plan = digested ? digestPlan : plainPlan
        var inner = plan.listBytes
        let parameters = try appendParameters(to: &inner, created: created, nonce: nonce)
        return (digested ? digestComponents : plainComponents, inner, parameters)
    }

    /// The `Content-Digest` value for a body.
    private func digestFieldValue(_ body: Data) throws(SigningError) -> String {
        let digest = try configuration.digestAlgorithm.hash(body)
        return ContentDigest.fieldValue(digest: digest, algorithm: configuration.digestAlgorithm)
    }

    /// Appends `;created=...;expires=...;nonce="...";keyid=...`.
    private func appendParameters(
        to inner: inout [UInt8],
        created: Date?,
        nonce: String?
    ) throws(SigningError) -> SignatureParameters {
        let time = created ?? clock()
        let createdSeconds = Int64(time.timeIntervalSince1970.rounded(.down))
        inner.append(contentsOf: ";created=".utf8)
        SFSerializer.appendDecimalDigits(of: createdSeconds, to: &inner)
        let expires = lifetimeSeconds.map { createdSeconds + $0 }
        if let expires {
            inner.append(contentsOf: ";expires=".utf8)
            SFSerializer.appendDecimalDigits(of: expires, to: &inner)
        }
        var nonceValue = nonce
        if let nonce {
            guard !nonce.isEmpty, nonce.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
                throw SigningError(.invalidConfiguration, "a nonce must be non-empty printable ASCII")
            }
            inner.append(contentsOf: ";nonce=".utf8)
            // Checked above as printable ASCII, so it serialises.
            try? SFSerializer.appendString(nonce, to: &inner)
        } else if configuration.includesNonce {
            let generated = try NonceSource.nonce()
            inner.append(contentsOf: ";nonce=\"".utf8)
            inner.append(contentsOf: generated.utf8)
            inner.append(UInt8(ascii: "\""))
            nonceValue = generated
        }
        inner.append(contentsOf: keyParameterBytes)
        return SignatureParameters(
            created: createdSeconds, expires: expires, nonce: nonceValue, keyID: key.id,
            algorithm: configuration.includesAlgorithm ? key.algorithm.rawValue : nil, tag: key.tag)
    }

    private static func writeAuthority(
        _ authority: UnsafeBufferPointer<UInt8>,
        scheme: UnsafeBufferPointer<UInt8>,
        to base: inout ByteWriter
    ) {
        let length = ByteText.lengthWithoutDefaultPort(authority, scheme: scheme)
        base.appendLowercased(UnsafeBufferPointer(rebasing: authority[0..<length]))
    }

    private static func writeTarget(
        path: UnsafeBufferPointer<UInt8>,
        query: UnsafeBufferPointer<UInt8>?,
        to base: inout ByteWriter
    ) {
        if path.isEmpty { base.append(UInt8(ascii: "/")) } else { base.append(path) }
        if let query {
            base.append(UInt8(ascii: "?"))
            base.append(query)
        }
    }

    /// Adds `Signature-Input` and `Signature`, replacing a member with the same label and keeping
    /// the others.
    static func setFields(input: String, signature: String, label: String, in headers: inout HTTPHeaders) {
        let existing = MessageText.signatureFields(in: headers)
        if existing.input == nil && existing.signature == nil {
            // One new array with room for both fields, instead of growing a shared one twice.
            var fields: [HTTPHeaders.Field] = []
            fields.reserveCapacity(headers.count + 2)
            fields.append(contentsOf: headers.fields)
            fields.append(HTTPHeaders.Field(name: "Signature-Input", value: input))
            fields.append(HTTPHeaders.Field(name: "Signature", value: signature))
            headers = HTTPHeaders(fields)
            return
        }
        setMember(input, label: label, field: "Signature-Input", in: &headers)
        setMember(signature, label: label, field: "Signature", in: &headers)
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
