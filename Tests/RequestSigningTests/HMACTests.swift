import Foundation
import RequestSigning
import Testing

struct HMACTests {
    @Test func vectorsLoaded() {
        #expect(Vectors.rfc4231.cases.count == 7)
    }

    @Test(arguments: Vectors.rfc4231.cases)
    func rfc4231(_ vector: Vectors.RFC4231.Case) throws {
        let key = Vectors.bytes(hex: vector.key_hex)
        let data = Vectors.bytes(hex: vector.data_hex)
        for algorithm in SigningAlgorithm.allCases {
            let name = algorithm == .hmacSHA256 ? "sha256" : "sha512"
            let expected = try #require(vector.expected[name])
            let mac = try HMACKey(secret: key, algorithm: algorithm).authenticationCode(for: data)
            #expect(mac.count == algorithm.macLength)
            if let bits = vector.truncate_to_bits {
                #expect(Vectors.hex(Array(mac.prefix(bits / 8))) == expected, "\(algorithm)")
            } else {
                #expect(Vectors.hex(mac) == expected, "\(algorithm)")
            }
        }
    }

    /// All four RFC 4231 hashes through the same HMAC engine (SHA-224 and SHA-384 are outside
    /// the signing scheme, so they are reached through the package-level engine).
    @Test(arguments: Vectors.rfc4231.cases)
    func rfc4231AllFourHashes(_ vector: Vectors.RFC4231.Case) throws {
        let key = Vectors.bytes(hex: vector.key_hex)
        let data = Vectors.bytes(hex: vector.data_hex)
        for (name, digest) in [("sha224", "SHA224"), ("sha256", "SHA256"), ("sha384", "SHA384"), ("sha512", "SHA512")] {
            let expected = try #require(vector.expected[name])
            let engine = try KeyedMAC(secret: key, digestName: digest)
            let mac = try engine.authenticationCode(for: data)
            let shown = vector.truncate_to_bits.map { Array(mac.prefix($0 / 8)) } ?? mac
            #expect(Vectors.hex(shown) == expected, "\(name)")
            // The reused context gives the same answer again, and a different one for other data.
            #expect(try engine.authenticationCode(for: data) == mac)
            #expect(try engine.authenticationCode(for: data + [0]) != mac)
        }
    }

    @Test func validationIsLengthCheckedAndExact() throws {
        let key = try HMACKey(secret: [UInt8](repeating: 7, count: 32), algorithm: .hmacSHA256)
        let data = Array("message".utf8)
        let mac = try key.authenticationCode(for: data)
        func accepts(_ code: [UInt8]) throws -> Bool {
            try data.withUnsafeBytes { bytes in
                Result { () throws(SigningError) in try key.isValidAuthenticationCode(code, for: bytes) }
            }.get()
        }
        #expect(try accepts(mac))
        #expect(try !accepts(Array(mac.dropLast())))
        #expect(try !accepts(mac + [0]))
        var flipped = mac
        flipped[31] ^= 1
        #expect(try !accepts(flipped))
        #expect(try !accepts([]))
    }

    @Test func emptyKeyAndEmptyMessage() throws {
        // HMAC-SHA-256 with an empty key over an empty message (a well-known value).
        let mac = try HMACKey(secret: [UInt8](), algorithm: .hmacSHA256).authenticationCode(for: [UInt8]())
        #expect(Vectors.hex(mac) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func concurrentUseGivesTheSameMACs() async throws {
        let key = try HMACKey(secret: Array("0123456789abcdef0123456789abcdef".utf8), algorithm: .hmacSHA256)
        let messages = (0..<16).map { Array("message number \($0)".utf8) }
        let expected = try messages.map { try key.authenticationCode(for: $0) }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var bad = 0
                    for round in 0..<300 {
                        let index = (worker + round) % messages.count
                        if try key.authenticationCode(for: messages[index]) != expected[index] { bad += 1 }
                    }
                    return bad
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func descriptionsHideTheSecret() throws {
        let secret = Array("super-secret-key-material-0123456789".utf8)
        let key = try SigningKey(id: "k1", tag: "UserModule", secret: secret)
        for text in [
            key.description, key.debugDescription, String(describing: key), String(reflecting: key),
            key.secret.description, "\(key.secret)",
        ] {
            #expect(!text.contains("super-secret"))
            #expect(text.contains("redacted"))
        }
    }

    @Test func signingKeysNeedThirtyTwoBytes() throws {
        #expect(throws: SigningError.self) {
            try SigningKey(id: "k", tag: nil, secret: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: SigningError.self) {
            try SigningKey(id: "", tag: nil, secret: [UInt8](repeating: 1, count: 32))
        }
        #expect(throws: SigningError.self) {
            try SigningKey(id: "k", tag: "bad\ntag", secret: [UInt8](repeating: 1, count: 32))
        }
        _ = try SigningKey(id: "k", tag: nil, secret: [UInt8](repeating: 1, count: 32))
    }
}
