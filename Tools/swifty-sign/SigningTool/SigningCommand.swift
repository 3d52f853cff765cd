public import RequestSigning

/// A parsed command line.
public enum SigningCommand: Sendable {
    /// `sign`.
    case sign(SignOptions)
    /// `verify`.
    case verify(VerifyOptions)
    /// `base`: sign options for an unsigned request (`nil` when `--key-id` is absent), and the
    /// label and scheme for a signed one.
    case base(SignOptions?, label: String, scheme: String)
    /// `digest`.
    case digest(DigestAlgorithm)
    /// `--help` for a subcommand (`nil` for the overview).
    case help(String?)

    /// Parses the arguments after the program name.
    /// - Throws: ``UsageError`` for an unknown subcommand or option, a missing or invalid value.
    public static func parse(_ arguments: [String]) throws(UsageError) -> SigningCommand {
        guard let subcommand = arguments.first else { throw UsageError("no subcommand given") }
        let rest = Array(arguments.dropFirst())
        switch subcommand {
        case "--help", "-h", "help":
            return .help(rest.first)
        case "sign":
            let list = try ArgumentList(
                rest, options: SignOptions.optionNames, flags: ["no-nonce"], subcommand: subcommand)
            if list.has("help") { return .help(subcommand) }
            return .sign(try SignOptions(list, subcommand: subcommand, keyFileRequired: true))
        case "verify":
            let list = try ArgumentList(
                rest, options: VerifyOptions.optionNames, flags: ["no-nonce"], subcommand: subcommand)
            if list.has("help") { return .help(subcommand) }
            return .verify(try VerifyOptions(list))
        case "base":
            let list = try ArgumentList(
                rest, options: SignOptions.optionNames, flags: ["no-nonce"], subcommand: subcommand)
            if list.has("help") { return .help(subcommand) }
            let scheme = try list.choice("scheme", from: ["https", "http"], subcommand: subcommand) ?? "https"
            let options =
                list["key-id"] == nil ? nil : try SignOptions(list, subcommand: subcommand, keyFileRequired: false)
            return .base(options, label: list["label"] ?? "sig1", scheme: scheme)
        case "digest":
            let list = try ArgumentList(rest, options: ["alg"], flags: [], subcommand: subcommand)
            if list.has("help") { return .help(subcommand) }
            let name = try list.choice("alg", from: DigestAlgorithm.allCases.map(\.rawValue), subcommand: subcommand)
            return .digest(name.flatMap(DigestAlgorithm.init(rawValue:)) ?? .sha256)
        default:
            throw UsageError("unknown subcommand '\(subcommand)'")
        }
    }
}
