public import Foundation
import HTTPTypes
import RequestSigning
import ServiceCore

/// The logic of `swifty-sign`: parse the command line, read the input, sign, verify, print a
/// base or a digest. The executable only moves bytes between this and the process.
public enum SigningTool {
    /// Runs a command line.
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - input: Everything read from standard input.
    ///   - now: The current time (for `created` and for checking); tests pass a fixed one.
    /// - Returns: The exit status and what to print.
    public static func run(
        _ arguments: [String],
        input: [UInt8],
        now: @escaping @Sendable () -> Date = { Date() }
    ) async -> ToolResult {
        let command: SigningCommand
        do {
            command = try SigningCommand.parse(arguments)
        } catch {
            let name = error.subcommand.map { "swifty-sign \($0)" } ?? "swifty-sign"
            let hint =
                error.subcommand.map { "Run 'swifty-sign \($0) --help' for its options." }
                ?? "Run 'swifty-sign --help' for the subcommands."
            return ToolResult(exitCode: ExitCode.usage, error: "\(name): \(error)\n\(hint)\n")
        }
        switch command {
        case .help(let subcommand):
            return ToolResult(exitCode: ExitCode.success, output: Array(HelpText.text(for: subcommand).utf8))
        case .digest(let algorithm):
            return digest(input, algorithm: algorithm)
        case .sign(let options):
            return sign(input, options: options, now: now)
        case .verify(let options):
            return await verify(input, options: options, now: now)
        case .base(let options, let label, let scheme):
            return base(input, options: options, label: label, scheme: scheme, now: now)
        }
    }

    // MARK: Subcommands

    private static func digest(_ input: [UInt8], algorithm: DigestAlgorithm) -> ToolResult {
        do {
            let value = try ContentDigest.fieldValue(for: input, algorithm: algorithm)
            return ToolResult(exitCode: ExitCode.success, output: Array((value + "\n").utf8))
        } catch {
            return failure(ExitCode.dataError, "digest", error.description)
        }
    }

    private static func sign(_ input: [UInt8], options: SignOptions, now: @escaping @Sendable () -> Date) -> ToolResult
    {
        let key: SigningKey
        do {
            key = try SigningKey.load(
                id: options.keyID, algorithm: options.algorithm, tag: options.tag, fromFile: options.keyFile ?? "")
        } catch {
            return failure(ExitCode.keyFileError, "sign", error.description)
        }
        var request: RawHTTPRequest
        var message: SignableMessage
        do {
            (request, message) = try readRequest(input, scheme: options.scheme)
        } catch {
            return failure(ExitCode.dataError, "sign", "\(error)")
        }
        do {
            let signer = try RequestSigner(key: key, configuration: options.configuration, clock: now)
            try signer.sign(&message, created: options.created.map(date), nonce: fixedNonce(options.nonce))
        } catch {
            return failure(ExitCode.dataError, "sign", error.description)
        }
        request.headers = message.headers
        return ToolResult(exitCode: ExitCode.success, output: request.serialized())
    }

    private static func verify(
        _ input: [UInt8],
        options: VerifyOptions,
        now: @escaping @Sendable () -> Date
    ) async -> ToolResult {
        let key: SigningKey
        let message: SignableMessage
        do {
            key = try SigningKey.load(
                id: options.keyID, algorithm: options.algorithm, tag: options.tag, fromFile: options.keyFile)
        } catch {
            return failure(ExitCode.keyFileError, "verify", error.description)
        }
        do {
            message = try readRequest(input, scheme: options.scheme).message
        } catch {
            return failure(ExitCode.dataError, "verify", "\(error)")
        }
        let time = options.now.map(date) ?? now()
        do {
            let verifier = SignatureVerifier(
                keyRing: try KeyRing([key]),
                configuration: SignatureVerifier.Configuration(
                    label: options.label, maximumAge: .seconds(options.maximumAge),
                    requiresNonce: options.requiresNonce),
                clock: { time })
            let verified = try await verifier.verify(message)
            var summary = "valid (label \(verified.label), keyid \(verified.keyID)"
            if let module = verified.module { summary += ", tag \(module)" }
            summary += ")\n"
            return ToolResult(exitCode: ExitCode.success, output: Array(summary.utf8))
        } catch let error as SignatureVerificationError {
            return ToolResult(exitCode: ExitCode.invalidSignature, output: Array("invalid: \(error)\n".utf8))
        } catch {
            return failure(ExitCode.dataError, "verify", "\(error)")
        }
    }

    private static func base(
        _ input: [UInt8],
        options: SignOptions?,
        label: String,
        scheme: String,
        now: @escaping @Sendable () -> Date
    ) -> ToolResult {
        var message: SignableMessage
        do {
            message = try readRequest(input, scheme: scheme).message
        } catch {
            return failure(ExitCode.dataError, "base", "\(error)")
        }
        let inputs = message.headers.values(for: "Signature-Input").joined(separator: ", ")
        let signed = (try? SignatureInput.parse(fieldValue: inputs))?.contains { $0.label == label } ?? false
        do {
            let base: SignatureBase
            if signed {
                let verifier = SignatureVerifier(
                    keyRing: try KeyRing([]), configuration: SignatureVerifier.Configuration(label: label))
                base = try verifier.signatureBase(for: message)
            } else {
                guard let options else {
                    return failure(
                        ExitCode.usage, "base",
                        "the request has no signature labelled '\(label)', so '--key-id' is needed to show the base "
                            + "'sign' would make"
                    )
                }
                // The base does not depend on the secret, so a throwaway one stands in when no
                // key file is given.
                let key: SigningKey
                if let file = options.keyFile {
                    key = try SigningKey.load(
                        id: options.keyID, algorithm: options.algorithm, tag: options.tag, fromFile: file)
                } else {
                    var secret = [UInt8](repeating: 0, count: SigningKey.minimumSecretLength)
                    for index in secret.indices { secret[index] = UInt8.random(in: 0...255) }
                    key = try SigningKey(
                        id: options.keyID, algorithm: options.algorithm, tag: options.tag, secret: secret)
                }
                let signer = try RequestSigner(key: key, configuration: options.configuration, clock: now)
                base = try signer.signatureBase(
                    for: &message, created: options.created.map(date), nonce: fixedNonce(options.nonce))
            }
            return ToolResult(exitCode: ExitCode.success, output: base.bytes + [0x0A])
        } catch let error as KeyLoadingError {
            return failure(ExitCode.keyFileError, "base", error.description)
        } catch {
            return failure(ExitCode.dataError, "base", "\(error)")
        }
    }

    // MARK: Helpers

    private static func readRequest(
        _ input: [UInt8],
        scheme: String
    ) throws -> (request: RawHTTPRequest, message: SignableMessage) {
        let request = try RawHTTPRequest.parse(input)
        let message = try SignableMessage(
            method: request.method, scheme: scheme, requestTarget: request.target, headers: request.headers,
            body: request.body.isEmpty ? nil : Data(request.body))
        return (request, message)
    }

    private static func fixedNonce(_ nonce: SignOptions.Nonce) -> String? {
        if case .fixed(let value) = nonce { return value }
        return nil
    }

    private static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    private static func failure(_ code: Int32, _ subcommand: String, _ message: String) -> ToolResult {
        ToolResult(exitCode: code, error: "swifty-sign \(subcommand): error: \(message)\n")
    }
}
