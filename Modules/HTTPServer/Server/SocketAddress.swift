import Glibc

/// A numeric IPv4 or IPv6 socket address to bind, parsed without name resolution.
struct SocketAddress: Sendable {
    /// The address family.
    enum Family: Sendable { case ipv4, ipv6 }

    let family: Family
    private let storage: sockaddr_storage

    /// Parses `host` (`localhost` means `127.0.0.1`); `nil` when it is not a numeric address.
    init?(host: String, port: UInt16) {
        var storage = sockaddr_storage()
        let name = host == "localhost" ? "127.0.0.1" : host
        let parsed: Family? = withUnsafeMutableBytes(of: &storage) { raw -> Family? in
            var v4 = sockaddr_in()
            if inet_pton(AF_INET, name, &v4.sin_addr) == 1 {
                v4.sin_family = sa_family_t(AF_INET)
                v4.sin_port = port.bigEndian
                withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) }
                return .ipv4
            }
            var v6 = sockaddr_in6()
            if inet_pton(AF_INET6, name, &v6.sin6_addr) == 1 {
                v6.sin6_family = sa_family_t(AF_INET6)
                v6.sin6_port = port.bigEndian
                withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) }
                return .ipv6
            }
            return nil
        }
        guard let parsed else { return nil }
        self.family = parsed
        self.storage = storage
    }

    /// Calls `body` with a pointer to the `sockaddr`.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: storage) { raw in
            try body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self))
        }
    }
}
