import Foundation
import HTTPTypes
import RequestSigning
import ServiceCore
import Testing

/// RFC 9421's published signature bases, rebuilt byte for byte from the messages.
struct SignatureBaseVectorTests {
    @Test func vectorsLoaded() {
        #expect(Vectors.rfc9421Cases.count == 14)
        #expect(Vectors.componentExamples.count == 22)
        #expect(Vectors.transformExamples.count == 6)
    }

    /// The message a case is built on, with its related request for `req` components.
    private func message(for vector: Vectors.RFC9421.Case) throws -> SignableMessage {
        var message = try Vectors.message(vector.message)
        if let related = vector.related_request { message.request = try Vectors.message(related) }
        return message
    }

    @Test(arguments: Vectors.rfc9421Cases)
    func signatureBase(_ vector: Vectors.RFC9421.Case) throws {
        let inputs = try SignatureInput.parse(fieldValue: vector.signature_input_field)
        let input = try #require(inputs.first { $0.label == vector.label })
        // Signature-Input parses and serialises back to the published text.
        #expect(try input.serializedValue() == vector.signature_params_value)
        #expect(try input.serializedMember() == vector.signature_input_field)
        let base = try SignatureBase(message: try message(for: vector), input: input)
        #expect(base.text == vector.signature_base)
        #expect(base.bytes == Array(vector.signature_base.utf8))
        #expect(Vectors.hex(try DigestAlgorithm.sha256.hash(base.bytes)) == vector.signature_base_sha256_hex)
    }

    /// The signature base a verifier rebuilds from the received Signature-Input, for every case
    /// whose message carries its own signature (several signatures in one field included).
    @Test(arguments: Vectors.rfc9421Cases)
    func verifierRebuildsTheBaseFromTheMessage(_ vector: Vectors.RFC9421.Case) throws {
        let message = try message(for: vector)
        guard message.headers.contains("Signature-Input") else { return }
        let verifier = SignatureVerifier(
            keyRing: try KeyRing([]), configuration: SignatureVerifier.Configuration(label: vector.label))
        #expect(try verifier.signatureBase(for: message).text == vector.signature_base)
    }

    @Test func hmacSHA256CaseB25IsSignedExactly() throws {
        let vectors = try #require(Vectors.rfc9421)
        let vector = try #require(vectors.cases.first { $0.id == "rfc9421-b-2-5" })
        let encoded = try #require(vectors.keys["test-shared-secret"]?.base64)
        let secret = try #require(Data(base64Encoded: encoded))
        let key = try SigningKey(id: "test-shared-secret", tag: nil, secret: Array(secret))
        let signer = try RequestSigner(
            key: key,
            configuration: RequestSigner.Configuration(
                label: "sig-b25", components: [.field("date"), .authority, .field("content-type")],
                coversContentDigest: false, lifetime: nil, includesNonce: false, includesAlgorithm: false))
        var message = try Vectors.message(vector.message)
        let input = try signer.sign(&message, created: Date(timeIntervalSince1970: 1_618_884_473))
        #expect(try input.serializedMember() == vector.signature_input_field)
        #expect(message.headers["Signature-Input"] == vector.signature_input_field)
        #expect(message.headers["Signature"] == vector.signature_field)
        let base = try SignatureBase(message: message, input: input)
        #expect(base.text == vector.signature_base)
        #expect(Data(try key.secret.authenticationCode(for: base.bytes)).base64EncodedString() == vector.signature_b64)
    }

    @Test func hmacSHA256CaseB25Verifies() async throws {
        let vectors = try #require(Vectors.rfc9421)
        let vector = try #require(vectors.cases.first { $0.id == "rfc9421-b-2-5" })
        let encoded = try #require(vectors.keys["test-shared-secret"]?.base64)
        let secret = try #require(Data(base64Encoded: encoded))
        let ring = try KeyRing([SigningKey(id: "test-shared-secret", tag: nil, secret: Array(secret))])
        var message = try Vectors.message(vector.message)
        message.headers.add(name: "Signature-Input", value: vector.signature_input_field)
        message.headers.add(name: "Signature", value: vector.signature_field)
        let configuration = SignatureVerifier.Configuration(
            label: "sig-b25", requiredComponents: [.authority], requiresContentDigest: false, requiresNonce: false)
        let verifier = SignatureVerifier(
            keyRing: ring, configuration: configuration, clock: { Date(timeIntervalSince1970: 1_618_884_480) })
        let verified = try await verifier.verify(message)
        #expect(verified.keyID == "test-shared-secret")
        #expect(verified.parameters.created == 1_618_884_473)

        // One changed byte in a covered field and the same signature no longer verifies.
        var tampered = message
        tampered.headers["Content-Type"] = "application/json;"
        await #expect(throws: SignatureVerificationError.self) { try await verifier.verify(tampered) }
    }

    @Test(arguments: Vectors.componentExamples)
    func componentValues(_ example: Vectors.RFC9421.ComponentExample) throws {
        let message = try Vectors.fragment(
            example.message_fragment, scheme: example.scheme_assumed, trailers: example.trailers)
        for line in example.lines {
            let component = try ComponentIdentifier(parsing: line.component_identifier)
            #expect(component.description == line.component_identifier)
            let input = SignatureInput(label: "x", components: [component], parameters: SignatureParameters())
            let base = try SignatureBase(message: message, input: input)
            let first = base.text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)[0]
            #expect(String(first) == line.expected_base_line)
        }
    }

    @Test(arguments: Vectors.transformExamples)
    func transformations(_ example: Vectors.RFC9421.TransformExample) throws {
        let message = try Vectors.message(example.message)
        let field = try #require(message.headers["Signature-Input"])
        let input = try #require(try SignatureInput.parse(fieldValue: field).first)
        let base = try SignatureBase(message: message, input: input)
        #expect(base.text == example.signature_base)
        // The original message's base is the one the signature was made over.
        let original = try SignatureBase(message: try Vectors.message("b4-transform-0"), input: input)
        #expect((base.bytes == original.bytes) == example.expected_valid)
    }

    @Test func signatureParamsExampleReserializes() throws {
        let value =
            "(\"@target-uri\" \"@authority\" \"date\" \"cache-control\");keyid=\"test-key-rsa-pss\";alg=\"rsa-pss-sha512\";created=1618884475;expires=1618884775"
        let input = try #require(try SignatureInput.parse(fieldValue: "sig1=" + value).first)
        #expect(try input.serializedValue() == value)
        #expect(input.parameters.keyID == "test-key-rsa-pss")
        #expect(input.parameters.algorithm == "rsa-pss-sha512")
        #expect(input.parameters.created == 1_618_884_475)
        #expect(input.parameters.expires == 1_618_884_775)
    }
}
