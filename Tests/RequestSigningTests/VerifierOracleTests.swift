import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@testable import RequestSigning

/// The verifier must accept exactly what the reference verifier accepts, and reject with the
/// same error code: these tests run both on the same messages.
struct VerifierOracleTests {
    private func verifiers(
        configuration: SignatureVerifier.Configuration = SignatureVerifier.Configuration(),
        replayGuard: InMemoryReplayGuard? = nil
    ) throws -> (production: SignatureVerifier, reference: ReferenceVerifier) {
        let time = Fixtures.created.addingTimeInterval(2)
        let production = try Fixtures.verifier(
            configuration: configuration, replayGuard: replayGuard ?? InMemoryReplayGuard(), at: time)
        let reference = ReferenceVerifier(
            keyRing: try KeyRing([Fixtures.key()]), configuration: configuration,
            replayGuard: replayGuard ?? InMemoryReplayGuard(), clock: { time })
        return (production, reference)
    }

    private func outcome(_ verifier: SignatureVerifier, _ message: SignableMessage) async -> String {
        do {
            let verified = try await verifier.verify(message)
            return "valid \(verified.label) \(verified.keyID) \(verified.created) \(verified.nonce ?? "-")"
        } catch {
            return "\(error.code)"
        }
    }

    private func outcome(_ verifier: ReferenceVerifier, _ message: SignableMessage) async -> String {
        do {
            let verified = try await verifier.verify(message)
            return "valid \(verified.label) \(verified.keyID) \(verified.created) \(verified.nonce ?? "-")"
        } catch {
            return "\(error.code)"
        }
    }

    @Test func bothAgreeOnValidAndInvalidMessages() async throws {
        let post = try Fixtures.received(try Fixtures.signer().sign(Fixtures.postRequest()))
        let input = try #require(post.headers["Signature-Input"])
        var variants: [SignableMessage] = [post]
        func variant(_ change: (inout SignableMessage) -> Void) {
            var copy = post
            change(&copy)
            variants.append(copy)
        }
        // Same meaning, different spelling: the base is the canonical form either way.
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: "(\"", with: "(  \"") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: "\" \"", with: "\"   \"") }
        variant { $0.headers["Signature-Input"] = "other=();created=1, " + input }
        variant { $0.headers["Signature-Input"] = input + ", other=(\"@unknown\")" }
        variant { $0.headers["Signature-Input"] = input + ", " + input }
        variant { $0.headers["Signature-Input"] = "sig1=(\"@method\"), " + input }
        variant { $0.headers["Signature"] = "x=:AAAA:, " + $0.headers["Signature"]! }
        variant { $0.headers["Signature"] = $0.headers["Signature"]! + ";p=1" }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: ";created=", with: ";created=0") }
        variant {
            $0.headers["Signature-Input"] = input.replacingOccurrences(of: "\"UserModule\"", with: "\"User\\\\Module\"")
        }
        variant { $0.headers["Signature-Input"] = input + ";extra=1" }
        variant { $0.headers["Signature-Input"] = input + ";extra" }
        variant { $0.headers["Signature-Input"] = input + ";extra=1.50" }
        variant { $0.headers["Signature-Input"] = input + ";extra=:AAAA:;more=?0;token=a/b" }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: "\"@query\"", with: "\"@query\";req") }
        variant { $0.headers.add(name: "Content-Digest", value: "sha-512=:AAAA:") }
        variant { $0.headers["Content-Digest"] = $0.headers["Content-Digest"]! + ", md5=:AAAA:" }
        variant { $0.headers["content-digest"] = nil }
        variant { $0.body = Data("{}".utf8) }
        variant { $0.authority = "API.EXAMPLE.COM:443" }
        variant { $0.authority = "" }
        variant { $0.path = "/v1/pay ments" }
        variant { $0.headers.add(name: "Signature-Input", value: "late=()") }
        // Shapes the exact reader leaves to the parser (or that are malformed).
        variant { $0.headers["Signature-Input"] = input + " " }
        variant { $0.headers["Signature-Input"] = " " + input }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: "sig1=", with: "Sig1=") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: ";created=", with: "; created=") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: ";created=", with: ";created=-") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: ";created=", with: ";created=\"") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: ";keyid=", with: ";keyid=1;x=") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: "\"@path\"", with: "\"@Path\"") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: "\"@path\"", with: "\"@status\"") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: "\"@path\"", with: "\"x-absent\"") }
        variant {
            $0.headers["Signature-Input"] = input.replacingOccurrences(
                of: "\"@path\"", with: "\"@query-param\";name=\"dry-run\"")
        }
        variant {
            $0.headers["Signature-Input"] = input.replacingOccurrences(of: "\"@path\"", with: "\"content-type\";bs")
        }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: ";nonce=\"", with: ";nonce=\"\\\"") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: ";keyid=", with: ";keyid=;keyid=") }
        variant {
            $0.headers["Signature-Input"] = input.replacingOccurrences(of: "\" \"@path\"", with: "\" \"@method\"")
        }
        variant { $0.headers["Signature"] = $0.headers["Signature"]!.replacingOccurrences(of: "=:", with: "=:") + " " }
        variant { $0.headers["Signature"] = $0.headers["Signature"]!.replacingOccurrences(of: "=:", with: ":") }
        variant { $0.headers["Signature"] = $0.headers["Signature"]!.replacingOccurrences(of: "+", with: "-") }
        variant { $0.headers["Signature"] = $0.headers["Signature"]!.replacingOccurrences(of: "=:", with: "=:A") }
        variant { $0.headers["Signature"] = $0.headers["Signature"]!.replacingOccurrences(of: "=:", with: "=:AAAA") }
        variant { $0.headers["Signature"] = $0.headers["Signature"]!.replacingOccurrences(of: "=:", with: "==:") }
        variant { $0.headers["Signature"] = "sig1=:" + String(repeating: "A", count: 120) + ":" }
        variant { $0.headers["Signature"] = nil }
        variant { $0.headers["Signature-Input"] = nil }
        variant {
            $0.headers["Content-Digest"] = $0.headers["Content-Digest"]!.replacingOccurrences(of: "=:", with: "=:A")
        }
        variant {
            $0.headers["Content-Digest"] = $0.headers["Content-Digest"]!.replacingOccurrences(of: "=:", with: "==:")
        }
        variant {
            $0.headers["Content-Digest"] = $0.headers["Content-Digest"]!.replacingOccurrences(of: "sha", with: "SHA")
        }
        variant {
            let digest = $0.headers["Content-Digest"]!
            $0.headers["Content-Digest"] = String(digest.dropLast(2)) + ":"
        }
        for (index, message) in variants.enumerated() {
            let (production, reference) = try verifiers()
            let productionOutcome = await outcome(production, message)
            let referenceOutcome = await outcome(reference, message)
            #expect(productionOutcome == referenceOutcome, "variant \(index)")
        }
        // A verifier that takes the first signature, whatever its label.
        for message in variants.prefix(8) {
            let (production, reference) = try verifiers(configuration: SignatureVerifier.Configuration(label: nil))
            #expect(await outcome(production, message) == (await outcome(reference, message)))
        }
    }

    /// Signatures over components with parameters, made by hand, verify alike.
    @Test func handMadeInputsWithComponentParametersAgree() async throws {
        let created = Int64(Fixtures.created.timeIntervalSince1970)
        let components: [[ComponentIdentifier]] = [
            [.method, .authority, .path, .query, .queryParameter("dry-run")],
            [.method, .authority, .path, .query, try ComponentIdentifier(parsing: "content-type;bs")],
            [.method, .authority, .path, .query, .targetURI, .requestTarget, .scheme],
            [.method, .authority, .path, .query, .status],
        ]
        for (index, covered) in components.enumerated() {
            var message = try Fixtures.received(Fixtures.postRequest())
            message.body = nil
            let input = SignatureInput(
                label: "sig1", components: covered,
                parameters: SignatureParameters(
                    created: created, nonce: "n\\\"\(index)", keyID: "user-2026", tag: "UserModule"))
            if index < 3 {
                try Fixtures.sign(&message, input: input, key: Fixtures.key())
            } else {
                message.headers["Signature-Input"] = try input.serializedMember()
                message.headers["Signature"] = "sig1=:AAAA:"
            }
            let (production, reference) = try verifiers()
            let productionOutcome = await outcome(production, message)
            #expect(productionOutcome == (await outcome(reference, message)), "case \(index)")
            #expect(productionOutcome.hasPrefix("valid") == (index < 3), "case \(index)")
        }
    }

    @Test func randomMutationsNeverSplitThem() async throws {
        var generator = SplitMix64(seed: 0xFA57_FA57)
        let originals = [
            try Fixtures.received(try Fixtures.signer().sign(Fixtures.getRequest())),
            try Fixtures.received(try Fixtures.signer().sign(Fixtures.postRequest())),
        ]
        let alphabet = Array("\"();:=, ?*-.abz09AZ\\/\t@".utf8)
        var accepted = 0
        for round in 0..<600 {
            // CPU-bound: let the other tests' tasks run now and then.
            if round % 50 == 0 { await Task.yield() }
            var message = originals[round % 2]
            let field = ["Signature-Input", "Signature", "Content-Digest", "Accept"][Int(generator.next() % 4)]
            if var bytes = message.headers[field].map({ Array($0.utf8) }), !bytes.isEmpty {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                }
                message.headers[field] = String(decoding: bytes, as: UTF8.self)
            }
            let (production, reference) = try verifiers()
            let productionOutcome = await outcome(production, message)
            #expect(productionOutcome == (await outcome(reference, message)), "round \(round): \(field)")
            if productionOutcome.hasPrefix("valid") { accepted += 1 }
        }
        // Some mutations keep the meaning (spaces, untouched members), most break the MAC.
        #expect(accepted > 0)
        #expect(accepted < 600)
    }

    /// The verifier records nonces from the field's bytes, the reference from strings: both
    /// must land on the same entry of a shared guard.
    @Test func bothRecordTheSameNonce() async throws {
        for request in [Fixtures.getRequest(), Fixtures.postRequest()] {
            let message = try Fixtures.received(try Fixtures.signer().sign(request))
            for productionFirst in [true, false] {
                let shared = InMemoryReplayGuard(capacity: 10)
                let (production, reference) = try verifiers(replayGuard: shared)
                if productionFirst {
                    _ = try await production.verify(message)
                    #expect(shared.count == 1)
                    #expect(await outcome(reference, message) == "\(SignatureVerificationError.Code.replayedNonce)")
                } else {
                    _ = try await reference.verify(message)
                    #expect(shared.count == 1)
                    #expect(await outcome(production, message) == "\(SignatureVerificationError.Code.replayedNonce)")
                }
            }
        }
    }

    @Test func largeBasesOutgrowTheStackBuffer() async throws {
        var request = Fixtures.postRequest()
        request.headers.add(name: "X-Large", value: String(repeating: "v", count: 3_000))
        request.url = URL(string: "https://api.example.com/" + String(repeating: "p", count: 1_500) + "?q=1")!
        let signer = try Fixtures.signer(
            configuration: RequestSigner.Configuration(components: [
                .method, .authority, .path, .query, .targetURI, .scheme, .requestTarget, try .field("x-large"),
            ]))
        let signed = try signer.sign(request)
        let message = try Fixtures.received(signed)
        let (production, reference) = try verifiers()
        _ = try await production.verify(message)
        _ = try await reference.verify(message)
        let base = try production.signatureBase(for: message)
        #expect(base.bytes.count > 4_500)
        #expect(base.bytes == (try reference.signatureBase(for: message)))
    }

    /// RFC 9421's messages that carry their signature: the verifier's base, the reference's and
    /// the published one are the same bytes.
    @Test(arguments: Vectors.rfc9421Cases)
    func basesOfThePublishedMessagesAgree(_ vector: Vectors.RFC9421.Case) throws {
        var message = try Vectors.message(vector.message)
        if let related = vector.related_request { message.request = try Vectors.message(related) }
        guard message.headers.contains("Signature-Input") else { return }
        let configuration = SignatureVerifier.Configuration(label: vector.label)
        let production = SignatureVerifier(keyRing: try KeyRing([]), configuration: configuration)
        let reference = ReferenceVerifier(
            keyRing: try KeyRing([]), configuration: configuration, replayGuard: InMemoryReplayGuard(),
            clock: { Date() })
        let expected = Array(vector.signature_base.utf8)
        #expect(try reference.signatureBase(for: message) == expected)
        #expect(try production.signatureBase(for: message).bytes == expected)
    }
}
