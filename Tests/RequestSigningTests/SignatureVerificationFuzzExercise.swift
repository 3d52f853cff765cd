import Foundation
import HTTPTypes
import RequestSigning

/// What the SignatureVerification fuzz target and its regression test run for one input.
///
/// The first byte chooses the mode. Even: the rest describes a request (see ``parse(_:)``), the
/// production signer signs it and the verifier must accept it; then one byte of one part
/// (method, authority, path, query, a field name or value, the body, `Signature`,
/// `Signature-Input`, `Content-Digest`), chosen by bytes 1-4, is changed, and the verifier may
/// accept the changed request only when everything the signature covers is unchanged: the same
/// signature base and the same body. Odd: the request is taken as it is, with whatever
/// signature fields it has, and may be accepted only when its `Signature` is the MAC, computed
/// here with the key, of the base the verifier rebuilt. A violation is a
/// `SignatureVerificationFuzzExercise.Violation`.
///
/// The same file is compiled into the libFuzzer binary (Tools/fuzz/run) and into the test target.
enum SignatureVerificationFuzzExercise {
    /// A broken invariant, with the request concerned.
    struct Violation: Error, CustomStringConvertible {
        var message: String
        var request: String
        var description: String { "\(message); request: \(request.debugDescription)" }
    }

    static let created = Date(timeIntervalSince1970: 1_700_000_000)
    static let key: SigningKey = {
        do {
            return try SigningKey(id: "fuzz-key", tag: "UserModule", secret: (0..<32).map { UInt8($0 &* 7 &+ 3) })
        } catch {
            fatalError("the fuzz key is invalid: \(error)")
        }
    }()
    static let signer: RequestSigner = {
        do {
            return try RequestSigner(key: key, clock: { created })
        } catch {
            fatalError("the fuzz signer is invalid: \(error)")
        }
    }()

    /// A verifier with a fresh replay guard, so each check sees the nonce for the first time.
    static func verifier() -> SignatureVerifier {
        do {
            return SignatureVerifier(
                keyRing: try KeyRing([key]), replayGuard: InMemoryReplayGuard(capacity: 8),
                clock: { created.addingTimeInterval(2) })
        } catch {
            fatalError("the fuzz key ring is invalid: \(error)")
        }
    }

    /// A request as the input gives it.
    struct Parts {
        var method: String
        var authority: String
        var target: String
        var fields: [(String, String)]
        var body: Data?
    }

    /// Lines: method, authority, target, then `name: value` fields up to an empty line; what
    /// follows the empty line is the body.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Parts {
        var lines: [ArraySlice<UInt8>] = []
        var rest = bytes
        var body: Data?
        while let newline = rest.firstIndex(of: 0x0A) {
            let line = rest[rest.startIndex..<newline]
            rest = rest[(newline + 1)...]
            if line.isEmpty && lines.count >= 3 {
                body = Data(rest)
                rest = []
                break
            }
            lines.append(line)
        }
        if !rest.isEmpty { lines.append(rest) }
        func text(_ index: Int) -> String { index < lines.count ? String(decoding: lines[index], as: UTF8.self) : "" }
        var fields: [(String, String)] = []
        for line in lines.dropFirst(3) {
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { continue }
            fields.append(
                (String(text[..<colon]), String(text[text.index(after: colon)...].drop(while: { $0 == " " }))))
        }
        return Parts(method: text(0), authority: text(1), target: text(2), fields: fields, body: body)
    }

    /// Runs one input; throws the first broken invariant.
    static func run(_ input: [UInt8]) async throws(Violation) {
        guard input.count > 5 else { return }
        let parts = parse(input[5...])
        if input[0] & 1 == 0 {
            try await signAndMutate(parts, choice: Array(input[1..<5]))
        } else {
            try await verifyAsGiven(parts)
        }
    }

    private static func signAndMutate(_ parts: Parts, choice: [UInt8]) async throws(Violation) {
        let method = parts.method.isEmpty ? "GET" : parts.method
        guard let url = URL(string: "https://\(parts.authority)\(parts.target)"), url.host != nil else { return }
        // The signer sets the signature fields and Content-Digest itself; a caller's own would be
        // checked against a body they were not made for.
        let signing: Set<String> = ["signature", "signature-input", "content-digest"]
        let fields = parts.fields.filter { !signing.contains($0.0.lowercased()) }
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: method), url: url, headers: HTTPHeaders(fields), body: parts.body)
        guard let signed = try? signer.sign(request), let original = try? SignableMessage(signed) else { return }
        let describe = "\(method) \(signed.urlString) \(signed.headers.fields.map { "\($0.name): \($0.value)" })"
        let verifier = verifier()
        do {
            _ = try await verifier.verify(original)
        } catch {
            throw Violation(message: "a request the signer signed is refused: \(error)", request: describe)
        }
        guard let changed = mutate(original, choice), changed.differs else { return }
        let mutated = changed.message
        guard (try? await Self.verifier().verify(mutated)) != nil else { return }
        let before = try? verifier.signatureBase(for: original).bytes
        let after = try? Self.verifier().signatureBase(for: mutated).bytes
        guard before != nil, before == after, (mutated.body ?? Data()) == (original.body ?? Data()) else {
            throw Violation(
                message: "a request changed in a covered part (\(changed.part)) is accepted", request: describe)
        }
    }

    /// `message` with one byte of one part changed as `choice` says.
    private static func mutate(_ message: SignableMessage, _ choice: [UInt8]) -> (
        message: SignableMessage, part: String, differs: Bool
    )? {
        let position = Int(choice[1]) << 8 | Int(choice[2])
        let change = choice[3] == 0 ? 1 : choice[3]
        func flipped(_ text: String) -> String? {
            var bytes = Array(text.utf8)
            guard !bytes.isEmpty else { return nil }
            bytes[position % bytes.count] ^= change
            return String(decoding: bytes, as: UTF8.self)
        }
        var result = message
        let part: String
        let fields = message.headers.fields
        switch choice[0] % 8 {
        case 0:
            part = "method"
            result.method = flipped(message.method) ?? "X"
        case 1:
            part = "authority"
            guard let value = flipped(message.authority) else { return nil }
            result.authority = value
        case 2:
            part = "path"
            result.path = flipped(message.path) ?? "/"
        case 3:
            part = "query"
            result.query = message.query.flatMap(flipped) ?? "x"
        case 4, 5:
            guard !fields.isEmpty else { return nil }
            let index = position % fields.count
            var changed = fields
            if choice[0] % 8 == 4 {
                part = "the value of \(fields[index].name)"
                changed[index].value = flipped(fields[index].value) ?? "x"
            } else {
                part = "the name of \(fields[index].name)"
                changed[index].name = flipped(fields[index].name) ?? "x"
            }
            result.headers = HTTPHeaders(changed)
        case 6:
            part = "the body"
            var bytes = [UInt8](message.body ?? Data())
            if bytes.isEmpty {
                bytes = [change]
            } else {
                bytes[position % bytes.count] ^= change
            }
            result.body = Data(bytes)
        default:
            part = "the query removed"
            result.query = message.query == nil ? "" : nil
        }
        let differs =
            result.method != message.method || result.authority != message.authority || result.path != message.path
            || result.query != message.query || result.headers != message.headers || result.body != message.body
        return (result, part, differs)
    }

    private static func verifyAsGiven(_ parts: Parts) async throws(Violation) {
        guard
            let message = try? SignableMessage(
                method: parts.method, requestTarget: parts.target,
                headers: HTTPHeaders([("Host", parts.authority)] + parts.fields), body: parts.body)
        else { return }
        let describe = "\(parts.method) \(parts.authority) \(parts.target) \(parts.fields)"
        let verifier = verifier()
        guard (try? await verifier.verify(message)) != nil else { return }
        // Accepted: the Signature member must be the key's MAC of the base the verifier rebuilt.
        guard let base = try? verifier.signatureBase(for: message),
            let mac = try? key.secret.authenticationCode(for: base.bytes),
            let field = message.headers["Signature"],
            let signatures = try? SFParser.parseDictionary(field),
            let given = signatures["sig1"]?.item?.bareItem.byteSequenceValue, given == mac
        else {
            throw Violation(
                message: "a request whose signature is not the MAC of its base is accepted", request: describe)
        }
    }
}
