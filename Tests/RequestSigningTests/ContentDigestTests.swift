import Foundation
import RequestSigning
import Testing

struct ContentDigestTests {
    @Test func vectorsLoaded() {
        #expect(Vectors.rfc9530.cases.count >= 10)
    }

    @Test(arguments: Vectors.rfc9530.cases)
    func rfc9530(_ vector: Vectors.RFC9530.Case) throws {
        let algorithm = try #require(DigestAlgorithm(rawValue: vector.algorithm_key))
        let input = Vectors.bytes(hex: vector.input_hex)
        #expect(try ContentDigest.fieldValue(for: input, algorithm: algorithm) == vector.field_value)
        #expect(try Data(algorithm.hash(input)).base64EncodedString() == vector.expected_digest_b64)
        #expect(try ContentDigest.check(fieldValue: vector.field_value, body: input) == .valid)
        #expect(try ContentDigest.check(fieldValue: vector.field_value, body: input + [0x20]) == .mismatch(algorithm))
    }

    @Test func checkVerdicts() throws {
        let body = Array("{\"hello\": \"world\"}".utf8)
        let both =
            try ContentDigest.fieldValue(for: body, algorithm: .sha256) + ", "
            + ContentDigest.fieldValue(for: body, algorithm: .sha512)
        #expect(try ContentDigest.check(fieldValue: both, body: body) == .valid)
        // An unknown algorithm alongside a good one is ignored; alone it is unsupported.
        let withUnknown = "md5=:Sd/dVLAcvNLSq16eXua5uQ==:, " + (try ContentDigest.fieldValue(for: body))
        #expect(try ContentDigest.check(fieldValue: withUnknown, body: body) == .valid)
        #expect(
            try ContentDigest.check(fieldValue: "md5=:Sd/dVLAcvNLSq16eXua5uQ==:", body: body) == .noSupportedAlgorithm)
        // The misprinted double-padded value from the draft text is rejected as malformed.
        let doublePad = "sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg==:"
        guard case .malformed = try ContentDigest.check(fieldValue: doublePad, body: body) else {
            Issue.record("a double-padded byte sequence was accepted")
            return
        }
        guard case .malformed = try ContentDigest.check(fieldValue: "sha-256=\"abc\"", body: body) else {
            Issue.record("a string member was accepted")
            return
        }
        // One good member and one bad member: the bad one is reported.
        let mixed =
            try ContentDigest.fieldValue(for: body, algorithm: .sha256) + ", "
            + ContentDigest.fieldValue(for: body + [1], algorithm: .sha512)
        #expect(try ContentDigest.check(fieldValue: mixed, body: body) == .mismatch(.sha512))
    }
}
