import Foundation

/// The bearer credentials a module's upstream takes besides the signature: an OAuth 2.0 client
/// credentials grant (RFC 6749 §4.4) at ``tokenURL``, set as `modules.<Module>.credentials`.
///
/// The client secret comes from a file (``clientSecretFile``) or an environment variable
/// (``clientSecretEnvironment``), never from the configuration itself, and is never logged.
///
/// ```json
/// "FeedModule": {
///   "baseURL": "https://feed.example", "keyFile": "feed.key",
///   "credentials": {"tokenURL": "https://auth.example/oauth/token", "clientID": "swiftyd",
///                   "clientSecretFile": "feed-client.secret"}
/// }
/// ```
public struct ModuleCredentials: Sendable, Equatable, Codable {
    /// The token endpoint, `http` or `https`.
    public var tokenURL: String
    /// The client identifier.
    public var clientID: String
    /// The file holding the client secret (one line); a relative path is looked up in
    /// `$CREDENTIALS_DIRECTORY` first. Exactly one of this and ``clientSecretEnvironment``.
    public var clientSecretFile: String?
    /// The name of the environment variable holding the client secret.
    public var clientSecretEnvironment: String?
    /// The scopes asked for, space-separated; the server's default when `nil`.
    public var scope: String?
    /// Renew a token when less than this is left of its lifetime, in seconds: 30 when `nil`,
    /// more than a call's timeout, so a token never expires mid-call.
    public var renewBeforeSeconds: Double?

    /// Creates settings.
    public init(
        tokenURL: String,
        clientID: String,
        clientSecretFile: String? = nil,
        clientSecretEnvironment: String? = nil,
        scope: String? = nil,
        renewBeforeSeconds: Double? = nil
    ) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecretFile = clientSecretFile
        self.clientSecretEnvironment = clientSecretEnvironment
        self.scope = scope
        self.renewBeforeSeconds = renewBeforeSeconds
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case tokenURL, clientID, clientSecretFile, clientSecretEnvironment, scope, renewBeforeSeconds
    }

    /// Decodes the settings, rejecting unknown fields.
    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tokenURL = try container.decode(String.self, forKey: .tokenURL)
        clientID = try container.decode(String.self, forKey: .clientID)
        clientSecretFile = try container.decodeIfPresent(String.self, forKey: .clientSecretFile)
        clientSecretEnvironment = try container.decodeIfPresent(String.self, forKey: .clientSecretEnvironment)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        renewBeforeSeconds = try container.decodeIfPresent(Double.self, forKey: .renewBeforeSeconds)
    }

    /// The token endpoint as a URL, when it is an absolute `http` or `https` URL with a host.
    var parsedTokenURL: URL? {
        guard let url = URL(string: tokenURL), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        return url
    }

    /// How long before expiry a token is renewed.
    var renewBefore: Duration { .milliseconds(Int64((renewBeforeSeconds ?? 30) * 1000)) }

    /// The problems of these settings, each naming the field under `prefix`
    /// (`modules.FeedModule.credentials`); the secret itself is not read.
    func problems(prefix: String) -> [String] {
        var problems: [String] = []
        if parsedTokenURL == nil {
            problems.append("\(prefix).tokenURL \"\(tokenURL)\" is not an absolute http or https URL")
        }
        if clientID.isEmpty { problems.append("\(prefix).clientID must not be empty") }
        if (clientSecretFile == nil) == (clientSecretEnvironment == nil) {
            problems.append("\(prefix): give exactly one of clientSecretFile and clientSecretEnvironment")
        }
        if let seconds = renewBeforeSeconds, !(seconds >= 0 && seconds <= 3600) {
            problems.append("\(prefix).renewBeforeSeconds \(seconds) is not 0-3600")
        }
        return problems
    }

    /// Reads the client secret: the file's first line or the environment variable's value.
    /// - Throws: ``ConfigurationProblems`` naming the file or variable (never the secret).
    func secret(prefix: String, environment: [String: String]) throws(ConfigurationProblems) -> String {
        let text: String
        if let file = clientSecretFile {
            let path = UpstreamBinding.resolveCredential(file, environment: environment)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationProblems(problems: ["\(prefix).clientSecretFile \(path) cannot be read"])
            }
            text = String(decoding: data, as: UTF8.self)
        } else if let name = clientSecretEnvironment {
            guard let value = environment[name] else {
                throw ConfigurationProblems(problems: [
                    "\(prefix).clientSecretEnvironment: the environment variable \(name) is not set"
                ])
            }
            text = value
        } else {
            throw ConfigurationProblems(problems: ["\(prefix): no client secret is configured"])
        }
        let secret = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !secret.isEmpty else {
            throw ConfigurationProblems(problems: ["\(prefix): the client secret is empty"])
        }
        return secret
    }
}
