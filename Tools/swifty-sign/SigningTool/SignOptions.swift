public import RequestSigning

/// The options of `sign` (and of `base` for an unsigned request).
public struct SignOptions: Sendable {
    /// How the nonce is chosen.
    public enum Nonce: Sendable, Equatable {
        /// A fresh random nonce.
        case random
        /// This nonce.
        case fixed(String)
        /// No nonce.
        case none
    }

    /// The key file (optional for `base`).
    public var keyFile: String?
    /// The `keyid`.
    public var keyID: String
    /// The `tag` (the key's module), if any.
    public var tag: String?
    /// The signature label.
    public var label: String
    /// The covered components (without the automatic `content-digest`).
    public var components: [ComponentIdentifier]
    /// The `created` time in seconds since 1970, or `nil` for now.
    public var created: Int64?
    /// Seconds from `created` to `expires`.
    public var expiresIn: Int64
    /// The nonce choice.
    public var nonce: Nonce
    /// `https` or `http`.
    public var scheme: String
    /// The key's algorithm.
    public var algorithm: SigningAlgorithm

    static let optionNames: Set<String> = [
        "key-file", "key-id", "tag", "label", "components", "created", "expires-in", "nonce", "scheme", "alg",
    ]

    /// Reads the options of `sign` (`keyFileRequired`) or `base`.
    /// - Throws: ``UsageError``.
    init(_ arguments: ArgumentList, subcommand: String, keyFileRequired: Bool) throws(UsageError) {
        keyFile = keyFileRequired ? try arguments.required("key-file", subcommand: subcommand) : arguments["key-file"]
        keyID = try arguments.required("key-id", subcommand: subcommand)
        tag = arguments["tag"]
        label = arguments["label"] ?? "sig1"
        components = [.method, .authority, .path, .query]
        if let list = arguments["components"] {
            components = try Self.components(list, subcommand: subcommand)
        }
        created = try arguments.integer("created", in: 0...253_402_300_799, subcommand: subcommand)
        expiresIn = try arguments.integer("expires-in", in: 0...31_536_000, subcommand: subcommand) ?? 60
        if arguments.has("no-nonce") && arguments["nonce"] != nil {
            throw UsageError("'--nonce' and '--no-nonce' cannot be used together", subcommand: subcommand)
        }
        nonce = arguments.has("no-nonce") ? .none : arguments["nonce"].map { .fixed($0) } ?? .random
        scheme = try arguments.choice("scheme", from: ["https", "http"], subcommand: subcommand) ?? "https"
        let algorithmName = try arguments.choice(
            "alg", from: SigningAlgorithm.allCases.map(\.rawValue), subcommand: subcommand)
        algorithm = algorithmName.flatMap(SigningAlgorithm.init(rawValue:)) ?? .hmacSHA256
    }

    /// Splits a comma-separated component list (commas inside quotes do not split).
    static func components(_ list: String, subcommand: String) throws(UsageError) -> [ComponentIdentifier] {
        var entries: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in list {
            if escaped {
                escaped = false
            } else if character == "\\" && quoted {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                entries.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        entries.append(current)
        var components: [ComponentIdentifier] = []
        for entry in entries {
            let component: ComponentIdentifier
            do {
                component = try ComponentIdentifier(parsing: entry)
            } catch {
                throw UsageError("'--components': \(error.message)", subcommand: subcommand)
            }
            guard !components.contains(component) else {
                throw UsageError("'--components' lists \(component) twice", subcommand: subcommand)
            }
            components.append(component)
        }
        return components
    }

    /// The signer configuration these options describe.
    var configuration: RequestSigner.Configuration {
        RequestSigner.Configuration(
            label: label, components: components, lifetime: .seconds(expiresIn), includesNonce: nonce != .none)
    }
}
