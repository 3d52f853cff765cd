import Foundation
import HTTPTypes
import RequestSigning
import ServiceCore
import Testing

struct RequestSignerTests {
    @Test func signsAGetRequest() throws {
        let signed = try Fixtures.signer().sign(Fixtures.getRequest())
        #expect(signed.headers["Content-Digest"] == nil)
        let field = try #require(signed.headers["Signature-Input"])
        let input = try #require(try SignatureInput.parse(fieldValue: field).first)
        #expect(input.label == "sig1")
        #expect(input.components == [.method, .authority, .path, .query])
        #expect(input.parameters.created == 1_700_000_000)
        #expect(input.parameters.expires == 1_700_000_060)
        #expect(input.parameters.keyID == "user-2026")
        #expect(input.parameters.algorithm == "hmac-sha256")
        #expect(input.parameters.tag == "UserModule")
        #expect(input.parameters.nonce?.utf8.count == 22)
        #expect(
            input.parameters.parameters.elements.map(\.key) == ["created", "expires", "nonce", "keyid", "alg", "tag"])
        let signature = try SFParser.parseDictionary(try #require(signed.headers["Signature"]))
        #expect(signature["sig1"]?.item?.bareItem.byteSequenceValue?.count == 32)
        // The request is otherwise unchanged.
        #expect(signed.url == Fixtures.getRequest().url)
        #expect(signed.headers["Accept"] == "application/json")
    }

    @Test func signsAPostRequestWithItsDigest() throws {
        let request = Fixtures.postRequest()
        let signed = try Fixtures.signer().sign(request)
        let body = try #require(request.body)
        #expect(signed.headers["Content-Digest"] == (try ContentDigest.fieldValue(for: body)))
        let field = try #require(signed.headers["Signature-Input"])
        let input = try #require(try SignatureInput.parse(fieldValue: field).first)
        #expect(input.components == [.method, .authority, .path, .query, .contentDigest])
    }

    @Test func signingASignedPostAgainReplacesItsFields() async throws {
        var request = Fixtures.postRequest()
        request.headers.add(name: "content-digest", value: "sha-256=:AAAA:")
        let once = try Fixtures.signer().sign(request)
        let twice = try Fixtures.signer().sign(once)
        let body = try #require(request.body)
        #expect(twice.headers.values(for: "Content-Digest") == [try ContentDigest.fieldValue(for: body)])
        #expect(twice.headers.values(for: "Signature-Input").count == 1)
        #expect(twice.headers.values(for: "Signature").count == 1)
        #expect(twice.headers.count == request.headers.count + 2)
        _ = try await Fixtures.verifier().verify(try Fixtures.received(twice))
    }

    @Test func theBaseUsesTheRawPathQueryAndNormalizedAuthority() throws {
        var message = try SignableMessage(Fixtures.postRequest())
        let base = try Fixtures.signer().signatureBase(for: &message, nonce: "n")
        let lines = base.text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "\"@method\": POST")
        #expect(lines[1] == "\"@authority\": api.example.com")
        #expect(lines[2] == "\"@path\": /v1/payments")
        #expect(lines[3] == "\"@query\": ?dry-run=1")
        #expect(lines[4].hasPrefix("\"content-digest\": sha-256=:"))
        #expect(
            lines[5]
                == "\"@signature-params\": (\"@method\" \"@authority\" \"@path\" \"@query\" \"content-digest\");created=1700000000;expires=1700000060;nonce=\"n\";keyid=\"user-2026\";alg=\"hmac-sha256\";tag=\"UserModule\""
        )
        var get = try SignableMessage(Fixtures.getRequest())
        let getBase = try Fixtures.signer().signatureBase(for: &get, nonce: "n").text
        #expect(getBase.contains("\"@path\": /v1/users/42%2Fx\n\"@query\": ?fields=name%20full&b=2\n"))
    }

    @Test func everySignatureIsFresh() throws {
        let signer = try Fixtures.signer()
        let first = try signer.sign(Fixtures.getRequest())
        let second = try signer.sign(Fixtures.getRequest())
        #expect(first.headers["Signature-Input"] != second.headers["Signature-Input"])
        #expect(first.headers["Signature"] != second.headers["Signature"])
    }

    @Test func signedRequestsVerify() async throws {
        let verifier = try Fixtures.verifier()
        for request in [Fixtures.getRequest(), Fixtures.postRequest()] {
            let signed = try Fixtures.signer().sign(request)
            let verified = try await verifier.verify(try Fixtures.received(signed))
            #expect(verified.keyID == "user-2026")
            #expect(verified.module == "UserModule")
        }
    }

    @Test func otherLabelsAreKeptAndTheSameLabelReplaced() async throws {
        var request = Fixtures.getRequest()
        request.headers.add(name: "Signature-Input", value: "proxy=(\"@method\");created=1")
        request.headers.add(name: "Signature", value: "proxy=:AAAA:")
        let once = try Fixtures.signer().sign(request)
        let twice = try Fixtures.signer().sign(once)
        let inputs = try SignatureInput.parse(fieldValue: try #require(twice.headers["Signature-Input"]))
        #expect(inputs.map(\.label) == ["proxy", "sig1"])
        #expect(twice.headers.values(for: "Signature").count == 1)
        let signatures = try SFParser.parseDictionary(try #require(twice.headers["Signature"]))
        #expect(signatures.keys == ["proxy", "sig1"])
        _ = try await Fixtures.verifier().verify(try Fixtures.received(twice))
    }

    @Test func configurationIsValidated() throws {
        #expect(throws: SigningError.self) {
            try Fixtures.signer(configuration: RequestSigner.Configuration(label: "Sig 1"))
        }
        #expect(throws: SigningError.self) {
            try Fixtures.signer(configuration: RequestSigner.Configuration(components: [.method, .path, .method]))
        }
        #expect(throws: SigningError.self) {
            try Fixtures.signer(configuration: RequestSigner.Configuration(lifetime: .seconds(-1)))
        }
        var message = try SignableMessage(Fixtures.getRequest())
        #expect(throws: SigningError.self) { try Fixtures.signer().sign(&message, nonce: "bad\nnonce") }
    }

    @Test func missingCoveredFieldsAreErrors() throws {
        let signer = try Fixtures.signer(
            configuration: RequestSigner.Configuration(components: [.method, .field("x-request-id")]))
        #expect {
            try signer.sign(Fixtures.getRequest())
        } throws: { ($0 as? SigningError)?.code == .missingComponent }
        let relative = HTTPRequest(method: .get, url: URL(string: "/just/a/path")!)
        #expect {
            try Fixtures.signer().sign(relative)
        } throws: { ($0 as? SigningError)?.code == .invalidMessage }
    }
}
