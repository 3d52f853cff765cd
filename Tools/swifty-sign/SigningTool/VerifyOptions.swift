public import RequestSigning

/// The options of `verify`.
public struct VerifyOptions: Sendable {
    /// The key file.
    public var keyFile: String
    /// The key's id.
    public var keyID: String
    /// The key's module, if any.
    public var tag: String?
    /// The signature label.
    public var label: String
    /// The maximum age in seconds.
    public var maximumAge: Int64
    /// The time to check against, in seconds since 1970, or `nil` for now.
    public var now: Int64?
    /// Whether a nonce is required.
    public var requiresNonce: Bool
    /// `https` or `http`.
    public var scheme: String
    /// The key's algorithm.
    public var algorithm: SigningAlgorithm

    static let optionNames: Set<String> = ["key-file", "key-id", "tag", "label", "max-age", "now", "scheme", "alg"]

    /// Reads the options.
    /// - Throws: ``UsageError``.
    init(_ arguments: ArgumentList) throws(UsageError) {
        let subcommand = "verify"
        keyFile = try arguments.required("key-file", subcommand: subcommand)
        keyID = try arguments.required("key-id", subcommand: subcommand)
        tag = arguments["tag"]
        label = arguments["label"] ?? "sig1"
        maximumAge = try arguments.integer("max-age", in: 0...31_536_000, subcommand: subcommand) ?? 300
        now = try arguments.integer("now", in: 0...253_402_300_799, subcommand: subcommand)
        requiresNonce = !arguments.has("no-nonce")
        scheme = try arguments.choice("scheme", from: ["https", "http"], subcommand: subcommand) ?? "https"
        let algorithmName = try arguments.choice(
            "alg", from: SigningAlgorithm.allCases.map(\.rawValue), subcommand: subcommand)
        algorithm = algorithmName.flatMap(SigningAlgorithm.init(rawValue:)) ?? .hmacSHA256
    }
}
