import Foundation

extension RedisConfiguration {
    /// Creates a configuration (every other setting at its default) from a Redis URL:
    /// `redis://host[:port][/database]` (port 6379 unless given; an IPv6 address in brackets) or
    /// `unix:///path/to/redis.sock[?db=database]`.
    ///
    /// Credentials do not belong in the URL: a URL with user information is refused, and the
    /// password is read from a file with ``RedisCredentials/init(passwordFile:username:)``.
    /// - Throws: ``RedisError`` `invalidArgument` saying what is wrong; the message never
    ///   repeats the URL, which could hold a password.
    public init(url: String) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw RedisError(.invalidArgument, "the Redis URL is not a URL")
        }
        guard components.user == nil, components.password == nil else {
            throw RedisError(
                .invalidArgument,
                "the Redis URL holds credentials; give the password in a file (RedisCredentials(passwordFile:))")
        }
        switch scheme {
        case "redis":
            guard let host = components.host, !host.isEmpty else {
                throw RedisError(.invalidArgument, "the Redis URL names no host")
            }
            let port = components.port ?? 6379
            guard (1...65535).contains(port) else {
                throw RedisError(.invalidArgument, "the Redis URL's port \(port) is out of range")
            }
            let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            var database = 0
            if !path.isEmpty {
                guard let number = Int(path), number >= 0 else {
                    throw RedisError(.invalidArgument, "the Redis URL's path is not a database number")
                }
                database = number
            }
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            self.init(endpoint: .tcp(host: bare, port: port), database: database)
        case "unix":
            guard !components.path.isEmpty, components.host?.isEmpty ?? true else {
                throw RedisError(.invalidArgument, "a unix Redis URL needs a socket path: unix:///path/to/redis.sock")
            }
            var database = 0
            if let value = components.queryItems?.first(where: { $0.name == "db" })?.value {
                guard let number = Int(value), number >= 0 else {
                    throw RedisError(.invalidArgument, "the Redis URL's db is not a database number")
                }
                database = number
            }
            self.init(endpoint: .unixSocket(path: components.path), database: database)
        default:
            throw RedisError(
                .invalidArgument, "the Redis URL's scheme '\(scheme)' is not redis or unix (TLS is not supported)")
        }
    }
}
