import Foundation

extension URL {
    /// `scheme://host:port/path`, without user info or query (either may hold secrets): how a
    /// transport names a request in an error message.
    package var errorSummary: String {
        guard let scheme, let host else { return "<relative URL>" }
        let port = port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)\(path)"
    }
}
