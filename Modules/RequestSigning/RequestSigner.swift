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
    /// `("@method" ...)` for each component list, written once.
    let plainListBytes: [UInt8]
    let digestListBytes: [UInt8]
    /// `;keyid="..."[;alg="..."][;tag="..."]`, written once.
    let keyParameterBytes: [UInt8]
    /// `label=`.
    let labelBytes: [UInt8]
    /// Whole seconds of ``Configuration/lifetime``.
    let lifetimeSeconds: Int64?

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
            seconds = lifetime.components.seconds
            guard seconds! >= 0 else { throw SigningError(.invalidConfiguration, "the signature lifetime is negative") }
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
        self.plainListBytes = Self.listBytes(plain)
        self.digestListBytes = Self.listBytes(digest)
        self.keyParameterBytes = keyBytes
        self.labelBytes = label
        self.lifetimeSeconds = seconds
    }

    private static func listBytes(_ components: [ComponentIdentifier]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "(")]
        for (index, component) in components.enumerated() {
            if index > 0 { bytes.append(0x20) }
            bytes.append(contentsOf: component.serialized)
        }
        bytes.append(UInt8(ascii: ")"))
        return bytes
    }

    /// Signs a request: returns it with `Content-Digest` (when it has a body),
    /// `Signature-Input` and `Signature` set.
    /// - Throws: ``SigningError``: the URL has no host, a covered field is missing, OpenSSL failed.
    public func sign(_ request: HTTPRequest) throws(SigningError) -> HTTPRequest {
        var message = try SignableMessage(request)
        try sign(&message)
        var signed = request
        signed.headers = message.headers
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
        let prepared = try prepare(&message, created: created, nonce: nonce)
        var base: [UInt8] = []
        base.reserveCapacity(256 + prepared.inner.count * 2)
        try SignatureBase.appendComponentLines(prepared.components, of: message, to: &base)
        base.append(contentsOf: prepared.inner)
        var signatureField = labelBytes
        signatureField.reserveCapacity(labelBytes.count + 4 + (key.algorithm.macLength + 2) / 3 * 4)
        signatureField.append(UInt8(ascii: ":"))
        try withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { (mac) throws(SigningError) in
            let length = try base.withUnsafeBytes { bytes in
                Result { () throws(SigningError) in try key.secret.authenticate(bytes, into: mac) }
            }.get()
            Base64.encode(UnsafeRawBufferPointer(rebasing: mac[..<length]), into: &signatureField)
        }
        signatureField.append(UInt8(ascii: ":"))
        var inputField = labelBytes
        inputField.append(contentsOf: prepared.inner)
        Self.setMember(String(decoding: inputField, as: UTF8.self), label: configuration.label,
            field: "Signature-Input", in: &message.headers)
        Self.setMember(String(decoding: signatureField, as: UTF8.self), label: configuration.label,
            field: "Signature", in: &message.headers)
        return SignatureInput(label: configuration.label, components: prepared.components, parameters: prepared.parameters)
    }

    /// The signature base this signer would sign for `message`, without signing (for debugging;
    /// the message's headers gain `Content-Digest` as signing would add it).
    /// - Throws: ``SigningError``.
    public func signatureBase(
        for message: inout SignableMessage,
        created: Date? = nil,
        nonce: String? = nil
    ) throws(SigningError) -> SignatureBase {
        let prepared = try prepare(&message, created: created, nonce: nonce)
        var base: [UInt8] = []
        try SignatureBase.appendComponentLines(prepared.components, of: message, to: &base)
        base.append(contentsOf: prepared.inner)
        return SignatureBase(bytes: base)
    }

    /// Adds `Content-Digest` when needed and writes the inner list with its parameters.
    private func prepare(
        _ message: inout SignableMessage,
        created: Date?,
        nonce: String?
    ) throws(SigningError) -> (components: [ComponentIdentifier], inner: [UInt8], parameters: SignatureParameters) {
        let digested = configuration.coversContentDigest && message.hasBody
        if digested, let body = message.body {
            let digest = try configuration.digestAlgorithm.hash(body)
            message.headers.replaceOrAdd(
                name: "Content-Digest", value: ContentDigest.fieldValue(digest: digest, algorithm: configuration.digestAlgorithm))
        }
        let time = created ?? clock()
        let createdSeconds = Int64(time.timeIntervalSince1970.rounded(.down))
        var nonceValue: String?
        if let nonce {
            guard !nonce.isEmpty, nonce.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
                throw SigningError(.invalidConfiguration, "a nonce must be non-empty printable ASCII")
            }
            nonceValue = nonce
        } else if configuration.includesNonce {
            nonceValue = try SecureRandom.nonce()
        }
        var inner = digested ? digestListBytes : plainListBytes
        inner.reserveCapacity(inner.count + 64 + keyParameterBytes.count + (nonceValue?.utf8.count ?? 0))
        inner.append(contentsOf: ";created=".utf8)
        SFSerializer.appendDecimalDigits(of: createdSeconds, to: &inner)
        var expires: Int64?
        if let lifetimeSeconds {
            expires = createdSeconds + lifetimeSeconds
            inner.append(contentsOf: ";expires=".utf8)
            SFSerializer.appendDecimalDigits(of: createdSeconds + lifetimeSeconds, to: &inner)
        }
        if let nonceValue {
            inner.append(contentsOf: ";nonce=".utf8)
            // Checked above as printable ASCII, so it serialises.
            try? SFSerializer.appendString(nonceValue, to: &inner)
        }
        inner.append(contentsOf: keyParameterBytes)
        let parameters = SignatureParameters(
            created: createdSeconds, expires: expires, nonce: nonceValue, keyID: key.id,
            algorithm: configuration.includesAlgorithm ? key.algorithm.rawValue : nil, tag: key.tag)
        return (digested ? digestComponents : plainComponents, inner, parameters)
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
