import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@testable import RequestSigning

/// The signer's bases must be the reference's, byte for byte, for the RFC's components and for
/// random requests.
struct SignerOracleTests {
    /// The signature base the reference builds for a signed request's own `Signature-Input`.
    private func referenceBase(_ signed: HTTPRequest, label: String = "sig1") throws -> [UInt8] {
        let field = try #require(signed.headers["Signature-Input"])
        let input = try #require(try SignatureInput.parse(fieldValue: field).first { $0.label == label })
        return try ReferenceBase.bytes(message: try SignableMessage(signed), input: input)
    }

    private func expectedSignature(_ base: [UInt8]) throws -> String {
        "sig1=:" + Data(try Fixtures.key().secret.authenticationCode(for: base)).base64EncodedString() + ":"
    }

    @Test func signerMatchesTheReferenceForEveryDerivedComponent() throws {
        var request = Fixtures.getRequest()
        request.headers.add(name: "X-Folded", value: "one\r\n  two")
        let components: [ComponentIdentifier] = [
            .method, .targetURI, .authority, .scheme, .requestTarget, .path, .query, .queryParameter("b"),
            try .field("accept"), try .field("x-folded"), try ComponentIdentifier(parsing: "accept;bs"),
        ]
        let signer = try Fixtures.signer(configuration: RequestSigner.Configuration(components: components))
        let signed = try signer.sign(request)
        let base = try referenceBase(signed)
        #expect(signed.headers["Signature"] == (try expectedSignature(base)))
        let text = String(decoding: base, as: UTF8.self)
        #expect(text.contains("\"x-folded\": one two\n"))
        #expect(text.contains("\"@target-uri\": https://api.example.com/v1/users/42%2Fx?fields=name%20full&b=2\n"))
    }

    @Test func theRFCsComponentValuesAreTheReferencesAndTheSignersAlike() throws {
        for example in Vectors.componentExamples {
            let message = try Vectors.fragment(
                example.message_fragment, scheme: example.scheme_assumed, trailers: example.trailers)
            for line in example.lines {
                let component = try ComponentIdentifier(parsing: line.component_identifier)
                let input = SignatureInput(label: "x", components: [component], parameters: SignatureParameters())
                let reference = try ReferenceBase.bytes(message: message, input: input)
                let first = reference.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)[0]
                #expect(String(decoding: first, as: UTF8.self) == line.expected_base_line)
                #expect(try SignatureBase(message: message, input: input).bytes == reference)
            }
        }
        for vector in Vectors.rfc9421Cases {
            var message = try Vectors.message(vector.message)
            if let related = vector.related_request { message.request = try Vectors.message(related) }
            let input = try #require(
                try SignatureInput.parse(fieldValue: vector.signature_input_field).first { $0.label == vector.label })
            #expect(try ReferenceBase.bytes(message: message, input: input) == Array(vector.signature_base.utf8))
        }
    }

    /// Random requests (seeded): paths and queries with percent-escapes and odd bytes, hosts with
    /// ports and capitals, header values with spaces and folds, optional bodies, and a random
    /// choice of components. Whatever the signer signs, it signs the reference's base; the
    /// message path (`sign(&message)`, `signatureBase(for:)`) gives the same bytes; and what
    /// the signer refuses, the reference refuses too.
    @Test func randomRequestsSignTheReferenceBase() async throws {
        var generator = SplitMix64(seed: 0x5167_0042)
        func pick<T>(_ options: [T]) -> T { options[Int(generator.next() % UInt64(options.count))] }
        let segments = ["v1", "users", "42%2Fx", "a.b", "~me", "%E2%9C%93", "", "x;y", "caf%C3%A9"]
        let queries = [nil, "", "a=1", "a=1&b=2", "q=name%20full&a=", "dry-run=1&dry-run=2", "x+y=%2B", "b=2&a"]
        let hosts = ["api.example.com", "API.Example.com:443", "api.example.com:8443", "127.0.0.1:80", "[::1]:443"]
        let values = ["application/json", "  padded  ", "a, b", "one\r\n two", "tab\tinside", "", "x\u{0}y"]
        let optional: [ComponentIdentifier] = [
            .targetURI, .scheme, .requestTarget, try .field("accept"), try .field("x-extra"),
            .queryParameter("a"), try ComponentIdentifier(parsing: "accept;bs"), .status,
        ]
        var signedCount = 0
        for round in 0..<300 {
            // CPU-bound: let the other tests' tasks run now and then.
            if round % 50 == 0 { await Task.yield() }
            let path = (0..<Int(generator.next() % 4)).map { _ in pick(segments) }.joined(separator: "/")
            let query = pick(queries)
            let scheme = pick(["https", "http"])
            let text = "\(scheme)://\(pick(hosts))/\(path)" + (query.map { "?" + $0 } ?? "")
            guard let url = URL(string: text) else { continue }
            var headers: HTTPHeaders = ["Accept": pick(values)]
            if generator.next() % 2 == 0 { headers.add(name: "X-Extra", value: pick(values)) }
            let body = generator.next() % 3 == 0 ? Data("{\"round\":\(round)}".utf8) : nil
            let request = HTTPRequest(
                method: pick([.get, .post, .put, .delete]), url: url, headers: headers, body: body)
            var components: [ComponentIdentifier] = [.method, .authority, .path, .query]
            for component in optional where generator.next() % 4 == 0 { components.append(component) }
            let signer = try Fixtures.signer(configuration: RequestSigner.Configuration(components: components))

            var prepared = try SignableMessage(request)
            let preview = Result { () throws(SigningError) in
                try signer.signatureBase(for: &prepared, created: Fixtures.created, nonce: "n-\(round)")
            }
            switch preview {
            case .success(let preview):
                let field = try #require(try SignatureInput.parse(fieldValue: "sig1=" + parameters(of: preview)).first)
                let reference = try ReferenceBase.bytes(message: prepared, input: field)
                #expect(preview.bytes == reference, "round \(round): \(text)")
                let signed = try signer.sign(request)
                #expect(signed.headers["Signature"] == (try expectedSignature(try referenceBase(signed))), "\(round)")
                var message = try SignableMessage(request)
                let input = try signer.sign(&message, created: Fixtures.created, nonce: "n-\(round)")
                #expect(input.parameters.nonce == "n-\(round)")
                #expect(
                    message.headers["Signature"]
                        == (try expectedSignature(
                            try ReferenceBase.bytes(
                                message: message, input: input))))
                signedCount += 1
            case .failure:
                #expect(throws: SigningError.self, "round \(round): \(text)") { try signer.sign(request) }
            }
        }
        #expect(signedCount > 100)
    }

    /// The `@signature-params` value at the end of a base.
    private func parameters(of base: SignatureBase) -> String {
        let text = base.text
        let marker = "\"@signature-params\": "
        return String(text[text.range(of: marker, options: .backwards)!.upperBound...])
    }
}
