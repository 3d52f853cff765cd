package import Foundation

/// Checks base URLs when a client is made, so a bad one fails at start-up.
package enum BaseURLValidator {
    /// A base URL that cannot be used, with the reason.
    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    /// Returns the URL if it is absolute `http`/`https` with a host and no query, fragment or
    /// credentials.
    package static func validate(_ text: String) throws(Invalid) -> URL {
        guard !text.isEmpty else { throw Invalid(description: "the base URL is empty") }
        guard let components = URLComponents(string: text), let url = components.url else {
            throw Invalid(description: "the base URL \"\(text)\" is not a valid URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Invalid(description: "the base URL \"\(text)\" must be absolute http or https")
        }
        guard let host = components.host, !host.isEmpty else {
            throw Invalid(description: "the base URL \"\(text)\" has no host")
        }
        guard components.query == nil, components.fragment == nil else {
            throw Invalid(description: "the base URL \"\(text)\" must not have a query or fragment")
        }
        guard components.user == nil, components.password == nil else {
            throw Invalid(description: "the base URL must not hold credentials; use a middleware for authentication")
        }
        return url
    }

    /// The URL's text without trailing slashes, ready to have a path appended.
    package static func prefix(of url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
