import CHTTPParser
import ServiceCore

/// Turns an upstream's host name into the numeric address ``HTTP1Transport`` connects to.
///
/// The transport calls it on a thread of its own (never an event loop's), only when a new
/// connection needs an address it has not kept (see
/// ``HTTP1Transport/Configuration-swift.struct/addressLifetime``), so it may block. Implement it
/// to resolve through a service registry, or in tests to map names to loopback addresses.
public protocol HTTP1Resolver: Sendable {
    /// The numeric IPv4 or IPv6 address (without brackets) for `host`.
    /// - Throws: `TransportError` with code `connectionFailed` when the name does not resolve.
    func address(for host: String) throws -> String
}

/// The system's resolver (`getaddrinfo`: `/etc/hosts`, DNS, whatever `nsswitch.conf` says); the
/// first address it gives is used.
public struct SystemResolver: HTTP1Resolver {
    /// Creates the resolver.
    public init() {}

    /// Resolves `host` with `getaddrinfo`.
    public func address(for host: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let status = swifty_http1_resolve(host, &buffer, socklen_t(buffer.count))
        guard status == 0 else {
            throw TransportError(
                .connectionFailed, "the name '\(host)' did not resolve: \(String(cString: gai_strerror(status)))")
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
