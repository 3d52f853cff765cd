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
    /// The parts of signing shared by copies of the signer.
    let core: RequestSigningCore

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
        self.core = RequestSigningCore(
            key: key, keyParameterBytes: keyBytes, labelBytes: label, lifetimeSeconds: seconds,
            includesNonce: configuration.includesNonce)
    }

    /// Signs a request: returns it with `Content-Digest` (when it has a body),
    /// `Signature-Input` and `Signature` set.
    ///
    /// This is the middleware's path: the base is built from the URL's bytes and the header
    /// fields, into one buffer, without building a ``SignableMessage`` unless a covered
    /// component has parameters.
    /// - Throws: ``SigningError``: the URL has no host, a covered field is missing, OpenSSL failed.
    public func sign(_ request: HTTPRequest) throws(SigningError) -> HTTPRequest {
        // The fields the request leaves with, in one array with room for the ones signing adds,
        // so that adding them neither copies the request's array nor grows this one.
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(request.headers.count + 3)
        // From a buffer: appending the array itself would count a reference to it.
        request.headers.fields.withUnsafeBufferPointer { fields.append(contentsOf: $0) }
        let digested = configuration.coversContentDigest && !(request.body?.isEmpty ?? true)
        if digested, let body = request.body {
            HTTPHeaders.replaceOrAdd(
                HTTPHeaders.Field(name: "Content-Digest", value: digestFieldValue(body)), in: &fields)
        }
        let plan = digested ? digestPlan : plainPlan
        let created = Int64(clock().timeIntervalSince1970.rounded(.down))
        // The signature strings are moved into the fields, not copied.
        let (input, signature) = try fields.withUnsafeBufferPointer { (fields) throws(SigningError) in
            try signatureFields(request, fields: fields, plan: plan, created: created)
        }
        Self.setFields(input: input, signature: signature, label: configuration.label, in: &fields)
        return request.replacingHeaders(HTTPHeaders(fields))
    }

    /// The `Signature-Input` and `Signature` values for a request whose fields are `fields`.
    private func signatureFields(
        _ request: HTTPRequest,
        fields: UnsafeBufferPointer<HTTPHeaders.Field>,
        plan: Plan,
        created: Int64
    ) throws(SigningError) -> (input: String, signature: String) {
        var message: SignableMessage?
        if plan.needsMessage {
            var withFields = request
            withFields.headers = HTTPHeaders(Array(fields))
            message = try SignableMessage(withFields)
        }
        let core = core
        let outcome = ByteText.withBytes(request.urlString) { url -> Result<RequestSigningCore.Signed, SigningError> in
            guard let uri = URIRanges(url), !uri.authority.isEmpty else {
                return .failure(
                    SigningError(
                        .invalidMessage,
                        "the URL has no scheme and host to sign: \(String(decoding: url, as: UTF8.self))"))
            }
            return ByteText.withBytes(request.method.rawValue) { method in
                let parts = RequestParts(
                    method: method, scheme: UnsafeBufferPointer(rebasing: url[uri.scheme]),
                    authority: UnsafeBufferPointer(rebasing: url[uri.authority]),
                    path: UnsafeBufferPointer(rebasing: url[uri.path]),
                    query: uri.query.map { UnsafeBufferPointer(rebasing: url[$0]) }, requestTarget: nil,
                    isResponse: false, urlIsVisible: true)
                return core.sign(
                    plan, parts: parts, fields: fields, message: message, created: created, nonce: nil,
                    returningNonce: false)
            }
        }
        // A switch moves the strings out; `get()` would copy them.
        switch consume outcome {
        case .success(let signed): return (signed.input, signed.signature)
        case .failure(let error): throw error
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
        let (plan, components, seconds) = try prepare(&message, created: created, nonce: nonce)
        let signing = message
        let core = core
        let fields = try signing.withParts { parts in
            signing.headers.fields.withUnsafeBufferPointer { fields in
                core.sign(
                    plan, parts: parts, fields: fields, message: signing, created: seconds, nonce: nonce,
                    returningNonce: true)
            }
        }.get()
        Self.setFields(
            input: fields.input, signature: fields.signature, label: configuration.label, in: &message.headers)
        let parameters = SignatureParameters(
            created: seconds, expires: core.lifetimeSeconds.map { seconds + $0 }, nonce: fields.nonce, keyID: key.id,
            algorithm: configuration.includesAlgorithm ? key.algorithm.rawValue : nil, tag: key.tag)
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
        let (plan, _, seconds) = try prepare(&message, created: created, nonce: nonce)
        let signing = message
        let core = core
        let bytes = try signing.withParts { parts -> Result<[UInt8], SigningError> in
            signing.headers.fields.withUnsafeBufferPointer { fields in
                core.withBase(
                    plan, parts: parts, fields: fields, message: signing, created: seconds, nonce: nonce
                ) {
                    base, _ in Array(base)
                }
            }
        }.get()
        return SignatureBase(bytes: bytes)
    }

    // MARK: Parts

    /// Adds `Content-Digest` when needed and checks the arguments.
    /// - Returns: The plan, the components covered and the creation time.
    private func prepare(
        _ message: inout SignableMessage,
        created: Date?,
        nonce: String?
    ) throws(SigningError) -> (Plan, [ComponentIdentifier], Int64) {
        if let nonce {
            guard !nonce.isEmpty, nonce.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
                throw SigningError(.invalidConfiguration, "a nonce must be non-empty printable ASCII")
            }
        }
        let digested = configuration.coversContentDigest && message.hasBody
        if digested, let body = message.body {
            message.headers.replaceOrAdd(name: "Content-Digest", value: digestFieldValue(body))
        }
        let seconds = Int64((created ?? clock()).timeIntervalSince1970.rounded(.down))
        return (digested ? digestPlan : plainPlan, digested ? digestComponents : plainComponents, seconds)
    }

    /// The `Content-Digest` value for a body.
    private func digestFieldValue(_ body: Data) -> String {
        let algorithm = configuration.digestAlgorithm
        return body.withUnsafeBytes { ContentDigest.fieldValue(body: $0, algorithm: algorithm) }
    }

    /// Adds `Signature-Input` and `Signature`, replacing a member with the same label and keeping
    /// the others.
    static func setFields(input: String, signature: String, label: String, in headers: inout HTTPHeaders) {
        var fields = headers.fields
        // Let go of the headers' reference, so that `fields` is uniquely held when it was.
        headers = HTTPHeaders()
        setFields(input: input, signature: signature, label: label, in: &fields)
        headers = HTTPHeaders(fields)
    }

    /// ``setFields(input:signature:label:in:)`` on a list of fields being built.
    static func setFields(
        input: consuming String, signature: consuming String, label: String, in fields: inout [HTTPHeaders.Field]
    ) {
        let existing = fields.withUnsafeBufferPointer { MessageText.signatureFieldIndices(in: $0) }
        if existing.input < 0 && existing.signature < 0 {
            fields.reserveCapacity(fields.count + 2)
            fields.append(HTTPHeaders.Field(name: "Signature-Input", value: input))
            fields.append(HTTPHeaders.Field(name: "Signature", value: signature))
            return
        }
        var headers = HTTPHeaders(fields)
        fields = []
        setMember(input, label: label, field: "Signature-Input", in: &headers)
        setMember(signature, label: label, field: "Signature", in: &headers)
        fields = headers.fields
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
