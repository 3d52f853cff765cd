import Foundation

/// What a connection sends with `AUTH`: a password alone (`requirepass`) or an ACL user and its
/// password. The password is never printed: ``description`` hides it.
public struct RedisCredentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The ACL user, or `nil` for the `default` user (a `requirepass` password).
    public let username: String?
    /// The password; internal, so that it reaches only `AUTH`.
    let password: String

    /// Credentials given in code (tests); production reads them with ``init(passwordFile:username:)``.
    public init(username: String? = nil, password: String) {
        self.username = username
        self.password = password
    }

    /// Reads the password from a file (its whole content, without one trailing line break).
    /// - Throws: ``RedisError`` `invalidArgument` naming the file (never its content) when it
    ///   cannot be read or is empty.
    public init(passwordFile path: String, username: String? = nil) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RedisError(.invalidArgument, "the Redis password file \(path) cannot be read")
        }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\r\n") {
            text.removeLast(2)
        } else if text.hasSuffix("\n") {
            text.removeLast()
        }
        guard !text.isEmpty else { throw RedisError(.invalidArgument, "the Redis password file \(path) is empty") }
        self.init(username: username, password: text)
    }

    /// The user and a placeholder for the password.
    public var description: String { "user \(username ?? "default"), password <redacted>" }

    /// The same as ``description``.
    public var debugDescription: String { description }
}
