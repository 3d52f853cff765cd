import Glibc

/// The server's listening socket, bound and listening before any daemon starts, shared by every
/// network thread's daemon.
enum ListenSocket {
    /// Binds `address`, listens, and returns the descriptor and the bound port.
    static func open(_ address: SocketAddress, backlog: Int) throws(HTTPServerError) -> (fd: Int32, port: Int) {
        let family = address.family == .ipv6 ? AF_INET6 : AF_INET
        let fd = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket") }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if address.family == .ipv6 {
            _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        let length = address.family == .ipv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        let bound = address.withSockAddr { bind(fd, $0, socklen_t(length)) }
        guard bound == 0, listen(fd, Int32(backlog)) == 0 else {
            let error = failure("bind/listen")
            Glibc.close(fd)
            throw error
        }
        var storage = sockaddr_storage()
        var storageLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &storageLength) }
        }
        guard named == 0 else {
            let error = failure("getsockname")
            Glibc.close(fd)
            throw error
        }
        let port = withUnsafeBytes(of: storage) { raw -> UInt16 in
            // sin_port and sin6_port sit at the same offset, right after the family.
            raw.load(fromByteOffset: 2, as: UInt16.self)
        }
        return (fd, Int(UInt16(bigEndian: port)))
    }

    private static func failure(_ call: String) -> HTTPServerError {
        HTTPServerError(
            code: .startFailed,
            message: "\(call) failed (\(String(cString: strerror(errno)))); check that the address is local and the "
                + "port is free."
        )
    }
}
