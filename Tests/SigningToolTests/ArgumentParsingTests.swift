import RequestSigning
import SigningTool
import Testing

struct ArgumentParsingTests {
    @Test func signOptions() throws {
        let command = try SigningCommand.parse([
            "sign", "--key-file", "k", "--key-id=id1", "--tag", "UserModule", "--label", "s2", "--components",
            "@method,\"@query-param\";name=\"a,b\",content-type", "--created", "1700000000", "--expires-in", "30",
            "--nonce", "n1", "--scheme", "http", "--alg", "hmac-sha512",
        ])
        guard case .sign(let options) = command else {
            Issue.record("not a sign command: \(command)")
            return
        }
        #expect(options.keyFile == "k")
        #expect(options.keyID == "id1")
        #expect(options.tag == "UserModule")
        #expect(options.label == "s2")
        let queryParameter = try ComponentIdentifier("@query-param", parameters: ["name": .string("a,b")])
        #expect(options.components == [.method, queryParameter, try .field("content-type")])
        #expect(options.created == 1_700_000_000)
        #expect(options.expiresIn == 30)
        #expect(options.nonce == .fixed("n1"))
        #expect(options.scheme == "http")
        #expect(options.algorithm == .hmacSHA512)
    }

    @Test func defaults() throws {
        guard case .sign(let sign) = try SigningCommand.parse(["sign", "--key-file", "k", "--key-id", "i"]) else {
            Issue.record("not sign")
            return
        }
        #expect(sign.label == "sig1")
        #expect(sign.components == [.method, .authority, .path, .query])
        #expect(sign.expiresIn == 60)
        #expect(sign.nonce == .random)
        #expect(sign.scheme == "https")
        guard case .verify(let verify) = try SigningCommand.parse(["verify", "--key-file", "k", "--key-id", "i"]) else {
            Issue.record("not verify")
            return
        }
        #expect(verify.maximumAge == 300)
        #expect(verify.requiresNonce)
        #expect(verify.now == nil)
        guard case .digest(let algorithm) = try SigningCommand.parse(["digest"]) else {
            Issue.record("not digest")
            return
        }
        #expect(algorithm == .sha256)
    }

    @Test(arguments: ["sign", "verify", "base", "digest"])
    func helpOnEverySubcommand(_ subcommand: String) async throws {
        let result = await SigningTool.run([subcommand, "--help"], input: [])
        #expect(result.exitCode == 0)
        #expect(result.outputText.contains("USAGE: swifty-sign \(subcommand)"))
        #expect(result.error.isEmpty)
    }

    @Test func topLevelHelp() async {
        for arguments in [["--help"], ["help"], ["-h"]] {
            let result = await SigningTool.run(arguments, input: [])
            #expect(result.exitCode == 0)
            #expect(result.outputText.contains("SUBCOMMANDS"))
        }
    }

    @Test(arguments: [
        [], ["frobnicate"], ["sign"], ["sign", "--key-file", "k"], ["sign", "--key-id", "i"],
        ["sign", "--key-file", "k", "--key-id", "i", "--bogus"], ["sign", "--key-file"],
        ["sign", "--key-file", "k", "--key-id", "i", "--nonce", "n", "--no-nonce"],
        ["sign", "--key-file", "k", "--key-id", "i", "--created", "yesterday"],
        ["sign", "--key-file", "k", "--key-id", "i", "--expires-in", "-5"],
        ["sign", "--key-file", "k", "--key-id", "i", "--scheme", "ftp"],
        ["sign", "--key-file", "k", "--key-id", "i", "--alg", "rsa-pss-sha512"],
        ["sign", "--key-file", "k", "--key-id", "i", "--components", "@method,@nope"],
        ["sign", "--key-file", "k", "--key-id", "i", "--components", "@method,@method"],
        ["sign", "--key-file", "k", "--key-file", "k2", "--key-id", "i"], ["sign", "stray"],
        ["sign", "--no-nonce=yes", "--key-file", "k", "--key-id", "i"], ["verify", "--key-file", "k"],
        ["verify", "--key-file", "k", "--key-id", "i", "--max-age", "x"], ["digest", "--alg", "md5"],
        ["digest", "extra"],
    ])
    func usageErrorsExit64(_ arguments: [String]) async {
        let result = await SigningTool.run(arguments, input: [])
        #expect(result.exitCode == 64)
        #expect(result.error.contains("error:"))
        #expect(result.error.contains("--help"))
        #expect(result.output.isEmpty)
    }

    @Test func baseOfAnUnsignedRequestNeedsAKeyID() async {
        let result = await SigningTool.run(["base"], input: ToolFixtures.get)
        #expect(result.exitCode == 64)
        #expect(result.error.contains("--key-id"))
    }
}
