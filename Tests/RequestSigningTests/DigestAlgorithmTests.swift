import Foundation
import RequestSigning
import Testing

/// `DigestAlgorithm` against the example messages of FIPS 180-2 (Appendices B and C): one
/// block, two blocks, and a million bytes, for both digests `Content-Digest` supports.
struct DigestAlgorithmTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var name: String
        var message: [UInt8]
        var sha256: String
        var sha512: String
        var testDescription: String { name }
    }

    static let examples = [
        Example(
            name: "abc", message: Array("abc".utf8),
            sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            sha512: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        Example(
            name: "a million a", message: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
            sha256: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
            sha512: "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"),
    ]

    @Test(arguments: examples)
    func fips180Examples(_ example: Example) throws {
        #expect(Vectors.hex(try DigestAlgorithm.sha256.hash(example.message)) == example.sha256)
        #expect(Vectors.hex(try DigestAlgorithm.sha512.hash(example.message)) == example.sha512)
    }

    /// The two-block examples: 56 bytes fill the first SHA-256 block past its length field,
    /// 112 bytes the first SHA-512 block.
    @Test func twoBlockExamples() throws {
        let sha256Message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(
            Vectors.hex(try DigestAlgorithm.sha256.hash(sha256Message))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let sha512Message = Array(
            ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8)
        #expect(
            Vectors.hex(try DigestAlgorithm.sha512.hash(sha512Message))
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
    }

    /// A body signed with a `Content-Digest` of each algorithm verifies, and one byte more does not.
    @Test(arguments: DigestAlgorithm.allCases)
    func fieldValueChecksItsBody(_ algorithm: DigestAlgorithm) throws {
        let body = [UInt8](repeating: 0x5A, count: 300)
        let field = try ContentDigest.fieldValue(for: body, algorithm: algorithm)
        #expect(field.hasPrefix(algorithm.rawValue + "=:"))
        #expect(try ContentDigest.check(fieldValue: field, body: body) == .valid)
        #expect(try ContentDigest.check(fieldValue: field, body: body + [0]) == .mismatch(algorithm))
    }
}
