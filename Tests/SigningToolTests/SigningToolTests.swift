import Foundation
import HTTPTypes
import RequestSigning
import ServiceCore
import SigningTool
import Testing

struct SigningToolTests {
    private func run(_ arguments: [String], _ input: [UInt8], at time: Date = ToolFixtures.now) async -> ToolResult {
        await SigningTool.run(arguments, input: input, now: { time })
    }

    @Test func signThenVerify() async throws {
        let fixtures = try ToolFixtures()
        for request in [ToolFixtures.post, ToolFixtures.get] {
            let signed = await run(
                ["sign", "--key-file", fixtures.keyFile, "--key-id", "pay-1", "--tag", "PaymentModule"], request)
            #expect(signed.exitCode == 0, "\(signed.error)")
            let parsed = try RawHTTPRequest.parse(signed.output)
            #expect(parsed.headers.contains("Signature-Input"))
            #expect(parsed.headers.contains("Signature"))
            #expect(parsed.headers.contains("Content-Digest") == (request == ToolFixtures.post))
            #expect(parsed.lineEnding == (request == ToolFixtures.post ? .crlf : .lf))
            #expect(parsed.body == (try RawHTTPRequest.parse(request)).body)

            let verified = await run(
                ["verify", "--key-file", fixtures.keyFile, "--key-id", "pay-1", "--tag", "PaymentModule"],
                signed.output, at: ToolFixtures.now.addingTimeInterval(5))
            #expect(verified.exitCode == 0, "\(verified.outputText)")
            #expect(verified.outputText.hasPrefix("valid"))
        }
    }

    @Test func tamperedRequestsAreRejected() async throws {
        let fixtures = try ToolFixtures()
        let signed = await run(["sign", "--key-file", fixtures.keyFile, "--key-id", "pay-1"], ToolFixtures.post)
        let text = String(decoding: signed.output, as: UTF8.self)
        let tampered = [
            ("path", text.replacingOccurrences(of: "/v1/payments", with: "/v1/refunds")),
            ("query", text.replacingOccurrences(of: "dry-run=1", with: "dry-run=0")),
            ("method", text.replacingOccurrences(of: "POST /", with: "PUT /")),
            ("host", text.replacingOccurrences(of: "api.example.com", with: "evil.example.com")),
            ("body", text.replacingOccurrences(of: "1200", with: "9900")),
        ]
        for (what, request) in tampered {
            let result = await run(
                ["verify", "--key-file", fixtures.keyFile, "--key-id", "pay-1"], Array(request.utf8))
            #expect(result.exitCode == 1, "\(what)")
            #expect(result.outputText.hasPrefix("invalid: "), "\(what)")
        }
        let body = await run(
            ["verify", "--key-file", fixtures.keyFile, "--key-id", "pay-1"],
            Array(text.replacingOccurrences(of: "1200", with: "9900").utf8))
        #expect(body.outputText.contains("digest mismatch"))
    }

    @Test func verifyReportsWhichCheckFailed() async throws {
        let fixtures = try ToolFixtures()
        let signed = await run(
            ["sign", "--key-file", fixtures.keyFile, "--key-id", "pay-1", "--tag", "PaymentModule"], ToolFixtures.post)
        let cases: [([String], Date, String)] = [
            (["--key-id", "pay-1", "--tag", "UserModule"], ToolFixtures.now, "tag mismatch"),
            (["--key-id", "pay-2", "--tag", "PaymentModule"], ToolFixtures.now, "unknown key"),
            (
                ["--key-id", "pay-1", "--tag", "PaymentModule", "--max-age", "10"],
                ToolFixtures.now.addingTimeInterval(11), "too old"
            ),
            (["--key-id", "pay-1", "--tag", "PaymentModule"], ToolFixtures.now.addingTimeInterval(200), "expired"),
            (
                ["--key-id", "pay-1", "--tag", "PaymentModule", "--now", "1699999000"], ToolFixtures.now,
                "created in the future"
            ),
            (
                ["--key-id", "pay-1", "--tag", "PaymentModule", "--label", "other"], ToolFixtures.now,
                "missing signature"
            ),
        ]
        for (options, time, reason) in cases {
            let result = await run(["verify", "--key-file", fixtures.keyFile] + options, signed.output, at: time)
            #expect(result.exitCode == 1, "\(options)")
            #expect(result.outputText.contains(reason), "\(result.outputText)")
        }
        let other = try fixtures.file("other.key", Data(repeating: 9, count: 32).base64EncodedString())
        let wrongKey = await run(
            ["verify", "--key-file", other, "--key-id", "pay-1", "--tag", "PaymentModule"], signed.output)
        #expect(wrongKey.exitCode == 1)
        #expect(wrongKey.outputText.contains("invalid signature"))
    }

    @Test func noNonceOnBothSides() async throws {
        let fixtures = try ToolFixtures()
        let signed = await run(
            ["sign", "--key-file", fixtures.keyFile, "--key-id", "k", "--no-nonce"], ToolFixtures.get)
        #expect(!signed.outputText.contains("nonce="))
        let strict = await run(["verify", "--key-file", fixtures.keyFile, "--key-id", "k"], signed.output)
        #expect(strict.exitCode == 1)
        #expect(strict.outputText.contains("nonce"))
        let lenient = await run(
            ["verify", "--key-file", fixtures.keyFile, "--key-id", "k", "--no-nonce"], signed.output)
        #expect(lenient.exitCode == 0)
    }

    @Test func baseForSignedAndUnsignedRequests() async throws {
        let fixtures = try ToolFixtures()
        let unsigned = await run(
            ["base", "--key-id", "k", "--created", "1700000000", "--nonce", "abc", "--expires-in", "30"],
            ToolFixtures.get)
        #expect(unsigned.exitCode == 0, "\(unsigned.error)")
        #expect(
            unsigned.outputText
                == "\"@method\": GET\n\"@authority\": api.example.com\n\"@path\": /v1/users/42%2Fx\n\"@query\": ?fields=a%20b\n\"@signature-params\": (\"@method\" \"@authority\" \"@path\" \"@query\");created=1700000000;expires=1700000030;nonce=\"abc\";keyid=\"k\";alg=\"hmac-sha256\"\n"
        )
        // The base of a signed request is what sign signed.
        let signed = await run(
            [
                "sign", "--key-file", fixtures.keyFile, "--key-id", "k", "--created", "1700000000", "--nonce", "abc",
                "--expires-in", "30",
            ], ToolFixtures.get)
        let rebuilt = await run(["base"], signed.output)
        #expect(rebuilt.outputText == unsigned.outputText)
    }

    @Test func rfc9421CaseB25ThroughTheTool() async throws {
        let base = await run(["base", "--label", "sig-b25"], ToolFixtures.rfc9421B25)
        #expect(
            base.outputText
                == "\"date\": Tue, 20 Apr 2021 02:07:55 GMT\n\"@authority\": example.com\n\"content-type\": application/json\n\"@signature-params\": (\"date\" \"@authority\" \"content-type\");created=1618884473;keyid=\"test-shared-secret\"\n"
        )
        let fixtures = try ToolFixtures()
        let key = try fixtures.file(
            "b25.key", "uzvJfB4u3N0Jy4T7NZ75MDVcr8zSTInedJtkgcu46YW4XByzNJjxBdtjUkdJPBtbmHhIDi6pcl8jsasjlTMtDQ==\n")
        // Valid but for the verifier's own requirements: the RFC example covers neither @method
        // nor a nonce, which this scheme requires.
        let verified = await run(
            ["verify", "--key-file", key, "--key-id", "test-shared-secret", "--label", "sig-b25", "--no-nonce"],
            ToolFixtures.rfc9421B25, at: Date(timeIntervalSince1970: 1_618_884_480))
        #expect(verified.exitCode == 1)
        #expect(verified.outputText.contains("@method"))
    }

    @Test func digestOfABody() async {
        let body = Array("{\"hello\": \"world\"}".utf8)
        let sha256 = await run(["digest"], body)
        #expect(sha256.outputText == "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:\n")
        let sha512 = await run(["digest", "--alg", "sha-512"], body)
        #expect(
            sha512.outputText
                == "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:\n"
        )
    }

    @Test func keyFileErrorsExit66WithoutShowingTheFile() async throws {
        let fixtures = try ToolFixtures()
        let secretText = "plain-text-secret-that-is-not-base64!"
        let files = [
            fixtures.directory.appendingPathComponent("absent").path, try fixtures.file("empty", "\n"),
            try fixtures.file("raw", secretText),
            try fixtures.file("short", Data(repeating: 1, count: 8).base64EncodedString()),
            fixtures.directory.path,
        ]
        for file in files {
            for subcommand in ["sign", "verify"] {
                let result = await run([subcommand, "--key-file", file, "--key-id", "k"], ToolFixtures.post)
                #expect(result.exitCode == 66, "\(file)")
                #expect(result.error.contains(file))
                #expect(!result.error.contains(secretText))
            }
        }
    }

    @Test func unreadableRequestsExit65() async throws {
        let fixtures = try ToolFixtures()
        for input in ["", "not http at all", "POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nshort"] {
            for subcommand in [["sign", "--key-file", fixtures.keyFile, "--key-id", "k"], ["base"]] {
                let result = await run(subcommand, Array(input.utf8))
                #expect(result.exitCode == 65, "\(input)")
                #expect(result.error.contains("error:"))
            }
        }
        // A request without Host cannot be signed over @authority.
        let noHost = await run(
            ["sign", "--key-file", fixtures.keyFile, "--key-id", "k"], Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(noHost.exitCode == 65)
        #expect(noHost.error.contains("Host"))
    }
}
