import Foundation
import HTTPTypes
import ServiceCore
import ServiceTesting
import Testing

@testable import RequestSigning

/// The verifier's fast path must accept exactly what the reference path accepts: these tests
/// run both on the same messages.
struct VerificationPathTests {
    private func verifiers(
        keys: [SigningKey]? = nil,
        configuration: SignatureVerifier.Configuration = SignatureVerifier.Configuration()
    ) throws -> (fast: SignatureVerifier, reference: SignatureVerifier) {
        let fast = try Fixtures.verifier(keys: keys, configuration: configuration)
        var reference = try Fixtures.verifier(keys: keys, configuration: configuration)
        reference.useFastPath = false
        return (fast, reference)
    }

    /// The outcome of a verification as comparable text.
    private func outcome(_ verifier: SignatureVerifier, _ message: SignableMessage) async -> String {
        do {
            let verified = try await verifier.verify(message)
            return "valid \(verified.keyID) \(verified.created) \(verified.nonce ?? "-")"
        } catch {
            return "\(error.code)"
        }
    }

    @Test func signedRequestsTakeTheFastPath() throws {
        let (fast, _) = try verifiers()
        for request in [Fixtures.getRequest(), Fixtures.postRequest()] {
            let message = try Fixtures.received(try Fixtures.signer().sign(request))
            #expect(fast.fastCheck(message, now: Fixtures.created.addingTimeInterval(2)) != nil)
        }
    }

    @Test func bothPathsAgreeOnValidAndInvalidMessages() async throws {
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
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: "\"@query\"", with: "\"@query\";req") }
        variant { $0.headers.add(name: "Content-Digest", value: "sha-512=:AAAA:") }
        variant { $0.headers["Content-Digest"] = $0.headers["Content-Digest"]! + ", md5=:AAAA:" }
        variant { $0.headers["content-digest"] = nil }
        variant { $0.body = Data("{}".utf8) }
        variant { $0.authority = "API.EXAMPLE.COM:443" }
        variant { $0.headers.add(name: "Signature-Input", value: "late=()") }
        // Shapes the canonical readers leave to the general scanner (or reject).
        variant { $0.headers["Signature-Input"] = input + " " }
        variant { $0.headers["Signature-Input"] = " " + input }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: "sig1=", with: "Sig1=") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: ";created=", with: "; created=") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: ";created=", with: ";created=-") }
        variant { $0.headers["Signature-Input"] = input.replacingOccurrences(of: "\"@path\"", with: "\"@Path\"") }
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
            let (fast, reference) = try verifiers()
            let fastOutcome = await outcome(fast, message)
            let referenceOutcome = await outcome(reference, message)
            #expect(fastOutcome == referenceOutcome, "variant \(index)")
        }
    }

    @Test func randomMutationsNeverSplitThePaths() async throws {
        var generator = SplitMix64(seed: 0xFA57_FA57)
        let originals = [
            try Fixtures.received(try Fixtures.signer().sign(Fixtures.getRequest())),
            try Fixtures.received(try Fixtures.signer().sign(Fixtures.postRequest())),
        ]
        let alphabet = Array("\"();:=, ?*-.abz09AZ\\/\t@".utf8)
        var accepted = 0
        for round in 0..<400 {
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
            let (fast, reference) = try verifiers()
            let fastOutcome = await outcome(fast, message)
            #expect(fastOutcome == (await outcome(reference, message)), "round \(round): \(field)")
            if fastOutcome.hasPrefix("valid") { accepted += 1 }
        }
        // Some mutations keep the meaning (spaces, untouched members), most break the MAC.
        #expect(accepted < 400)
    }

    /// The fast path records nonces from the field's bytes, the reference path from strings:
    /// both must land on the same entry of a shared guard.
    @Test func bothPathsRecordTheSameNonce() async throws {
        for request in [Fixtures.getRequest(), Fixtures.postRequest()] {
            let message = try Fixtures.received(try Fixtures.signer().sign(request))
            for fastFirst in [true, false] {
                let shared = InMemoryReplayGuard(capacity: 10)
                let fast = try Fixtures.verifier(replayGuard: shared)
                var reference = try Fixtures.verifier(replayGuard: shared)
                reference.useFastPath = false
                let (first, second) = fastFirst ? (fast, reference) : (reference, fast)
                _ = try await first.verify(message)
                #expect(shared.count == 1)
                await #expect(throws: SignatureVerificationError.self) { try await second.verify(message) }
                let code = await outcome(second, message)
                #expect(code == "\(SignatureVerificationError.Code.replayedNonce)")
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
        let (fast, reference) = try verifiers()
        #expect(fast.fastCheck(message, now: Fixtures.created.addingTimeInterval(2)) != nil)
        _ = try await fast.verify(message)
        _ = try await reference.verify(message)
        // The signer's fast path and the generic base agree byte for byte.
        let field = try #require(signed.headers["Signature-Input"])
        let input = try #require(try SignatureInput.parse(fieldValue: field).first)
        let generic = try SignatureBase(message: message, input: input)
        #expect(generic.bytes.count > 4_500)
        let mac = try Fixtures.key().secret.authenticationCode(for: generic.bytes)
        #expect(signed.headers["Signature"] == "sig1=:" + Data(mac).base64EncodedString() + ":")
    }

    @Test func signerFastPathMatchesTheGenericBaseForEveryDerivedComponent() throws {
        var request = Fixtures.getRequest()
        request.headers.add(name: "X-Folded", value: "one\r\n  two")
        let components: [ComponentIdentifier] = [
            .method, .targetURI, .authority, .scheme, .requestTarget, .path, .query, .queryParameter("b"),
            try .field("accept"), try .field("x-folded"), try ComponentIdentifier(parsing: "accept;bs"),
        ]
        let signer = try Fixtures.signer(configuration: RequestSigner.Configuration(components: components))
        let signed = try signer.sign(request)
        let field = try #require(signed.headers["Signature-Input"])
        let input = try #require(try SignatureInput.parse(fieldValue: field).first)
        let base = try SignatureBase(message: try SignableMessage(signed), input: input)
        let mac = try Fixtures.key().secret.authenticationCode(for: base.bytes)
        #expect(signed.headers["Signature"] == "sig1=:" + Data(mac).base64EncodedString() + ":")
        #expect(base.text.contains("\"x-folded\": one two\n"))
        #expect(base.text.contains("\"@target-uri\": https://api.example.com/v1/users/42%2Fx?fields=name%20full&b=2\n"))
    }

    @Test func systemClockIsWholeSeconds() {
        let now = SystemClock.now().timeIntervalSince1970
        #expect(now == now.rounded(.down))
        #expect(abs(now - Date().timeIntervalSince1970) < 5)
    }
}
