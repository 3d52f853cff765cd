#if canImport(Glibc)
    import Glibc
#endif

/// Tells systemd about the daemon's state (`Type=notify`): `READY=1` once serving,
/// `RELOADING=1` with `MONOTONIC_USEC=` while a reload runs (then `READY=1` again), `STOPPING=1`
/// when draining.
///
/// Writes one datagram to the unix socket named by `$NOTIFY_SOCKET` (the sd_notify protocol);
/// does nothing when the variable is unset, so it is safe to call everywhere.
public struct SystemdNotifier: Sendable {
    private let socketPath: String?

    /// Creates a notifier for the socket in `environment["NOTIFY_SOCKET"]`.
    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `CLOCK_MONOTONIC` now in microseconds, the `MONOTONIC_USEC=` systemd expects with
    /// `RELOADING=1`.
    public static func monotonicMicroseconds() -> UInt64 {
        #if canImport(Glibc)
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        #else
            return 0
        #endif
    }

    /// Sends a state string such as `READY=1`, or several separated by newlines in one
    /// datagram. Returns whether it was delivered.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        #if canImport(Glibc)
            guard let socketPath else { return false }
            let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var pathBytes = Array(socketPath.utf8)
            // An abstract socket's name starts with "@", written as a NUL byte.
            if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
            let capacity = MemoryLayout.size(ofValue: address.sun_path)
            guard pathBytes.count < capacity else { return false }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: pathBytes)
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count)
            let sent = state.utf8CString.withUnsafeBufferPointer { text in
                withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                        sendto(descriptor, text.baseAddress, text.count - 1, Int32(MSG_NOSIGNAL), socketAddress, length)
                    }
                }
            }
            return sent == state.utf8.count
        #else
            return false
        #endif
    }
}
