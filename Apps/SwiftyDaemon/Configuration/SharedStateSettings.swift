import Foundation
import RedisClient

/// Where the state several daemons share lives: the token-introspection cache and the rate
/// limits. `sharedState` in the configuration file:
///
/// ```json
/// "sharedState": {
///   "store": "redis",
///   "redis": {"url": "redis://10.0.0.5:6379/0", "username": "swiftyd", "passwordFile": "redis.password",
///             "commandTimeoutMilliseconds": 500, "keyPrefix": "swifty:"}
/// }
/// ```
///
/// `memory` (the default) keeps both in the daemon's own memory, right for one daemon. `redis`
/// puts both in one Redis, so every daemon behind a load balancer counts against one allowance
/// and trusts a token another daemon introspected. The password comes from a file, never from
/// the configuration itself, and is never logged.
public struct SharedStateSettings: Sendable, Equatable, Codable {
    /// The Redis connection of the `redis` store.
    public struct Redis: Sendable, Equatable, Codable {
        /// `redis://host[:port][/database]` or `unix:///path/to/redis.sock[?db=N]`; no credentials
        /// in it.
        public var url: String = "redis://127.0.0.1:6379/0"
        /// The ACL user; the `default` user when `nil`.
        public var username: String?
        /// The file holding the password (its content, one trailing line break dropped); no
        /// `AUTH` when `nil`. A relative path is looked up in `$CREDENTIALS_DIRECTORY` first.
        public var passwordFile: String?
        /// How long one Redis call may take before it counts as failed, in milliseconds.
        public var commandTimeoutMilliseconds: Int = 500
        /// Put in front of every key the daemon writes, so several deployments can share a Redis.
        public var keyPrefix: String = "swifty:"

        /// Creates the defaults.
        public init() {}

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case url, username, passwordFile, commandTimeoutMilliseconds, keyPrefix
        }

        /// Decodes the settings, rejecting unknown fields.
        public init(from decoder: any Decoder) throws {
            try StrictKeys.check(decoder, allowed: CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = Redis()
            url = try container.decodeIfPresent(String.self, forKey: .url) ?? defaults.url
            username = try container.decodeIfPresent(String.self, forKey: .username)
            passwordFile = try container.decodeIfPresent(String.self, forKey: .passwordFile)
            commandTimeoutMilliseconds =
                try container.decodeIfPresent(Int.self, forKey: .commandTimeoutMilliseconds)
                ?? defaults.commandTimeoutMilliseconds
            keyPrefix = try container.decodeIfPresent(String.self, forKey: .keyPrefix) ?? defaults.keyPrefix
        }
    }

    /// The store names ``store`` may take.
    public static let stores = ["memory", "redis"]

    /// `memory` (the default) or `redis`; checked by `--check-config`.
    public var store: String = "memory"
    /// The Redis connection, used when ``store`` is `redis`.
    public var redis = Redis()

    /// Creates the defaults: in memory.
    public init() {}

    private enum CodingKeys: String, CodingKey, CaseIterable { case store, redis }

    /// Decodes the settings, rejecting unknown fields.
    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        store = try container.decodeIfPresent(String.self, forKey: .store) ?? "memory"
        redis = try container.decodeIfPresent(Redis.self, forKey: .redis) ?? Redis()
    }

    /// Whether the state lives in Redis.
    var usesRedis: Bool { store == "redis" }

    /// Every problem of the settings, each naming its field (`sharedState.redis.url: ...`); the
    /// password file is read to check it, its content never shown.
    func problems(environment: [String: String]) -> [String] {
        guard Self.stores.contains(store) else {
            return ["sharedState.store \"\(store)\" is not one of \(Self.stores.joined(separator: ", "))"]
        }
        guard usesRedis else { return [] }
        do {
            _ = try redisConfiguration(environment: environment)
            return []
        } catch {
            return error.problems
        }
    }

    /// The Redis client's configuration: the URL's endpoint and database, the credentials read
    /// from the password file, the command timeout.
    /// - Throws: ``ConfigurationProblems``, each naming its field (never the password).
    func redisConfiguration(environment: [String: String]) throws(ConfigurationProblems) -> RedisConfiguration {
        var problems: [String] = []
        var configuration = RedisConfiguration()
        do {
            configuration = try RedisConfiguration(url: redis.url)
        } catch let error as RedisError {
            problems.append("sharedState.redis.url: \(error.message)")
        } catch {
            problems.append("sharedState.redis.url: \(error)")
        }
        if let username = redis.username, username.isEmpty || username.contains(where: \.isWhitespace) {
            problems.append("sharedState.redis.username must be non-empty and without spaces")
        }
        if let file = redis.passwordFile {
            let path = UpstreamBinding.resolveCredential(file, environment: environment)
            do {
                configuration.credentials = try RedisCredentials(passwordFile: path, username: redis.username)
            } catch let error as RedisError {
                problems.append("sharedState.redis.passwordFile: \(error.message)")
            } catch {
                problems.append("sharedState.redis.passwordFile: \(error)")
            }
        } else if redis.username != nil {
            problems.append("sharedState.redis.username needs sharedState.redis.passwordFile")
        }
        if !(1...60_000).contains(redis.commandTimeoutMilliseconds) {
            problems.append(
                "sharedState.redis.commandTimeoutMilliseconds \(redis.commandTimeoutMilliseconds) is not 1-60000")
        }
        if redis.keyPrefix.utf8.count > 128 {
            problems.append("sharedState.redis.keyPrefix is longer than 128 bytes")
        }
        guard problems.isEmpty else { throw ConfigurationProblems(problems: problems) }
        configuration.commandTimeout = .milliseconds(redis.commandTimeoutMilliseconds)
        configuration.connectTimeout = .milliseconds(max(redis.commandTimeoutMilliseconds, 1_000))
        return configuration
    }

    /// Applies `SWIFTY_STATE_STORE`, `SWIFTY_REDIS_URL`, `SWIFTY_REDIS_USERNAME`,
    /// `SWIFTY_REDIS_PASSWORD_FILE`, `SWIFTY_REDIS_COMMAND_TIMEOUT_MS` and `SWIFTY_REDIS_KEY_PREFIX`.
    mutating func apply(environment: [String: String]) throws(DaemonConfiguration.LoadError) {
        if let value = environment["SWIFTY_STATE_STORE"] { store = value }
        if let value = environment["SWIFTY_REDIS_URL"] { redis.url = value }
        if let value = environment["SWIFTY_REDIS_USERNAME"] { redis.username = value }
        if let value = environment["SWIFTY_REDIS_PASSWORD_FILE"] { redis.passwordFile = value }
        if let text = environment["SWIFTY_REDIS_COMMAND_TIMEOUT_MS"] {
            guard let value = Int(text) else {
                throw DaemonConfiguration.LoadError(
                    message: "SWIFTY_REDIS_COMMAND_TIMEOUT_MS=\"\(text)\" is not a whole number")
            }
            redis.commandTimeoutMilliseconds = value
        }
        if let value = environment["SWIFTY_REDIS_KEY_PREFIX"] { redis.keyPrefix = value }
    }
}
