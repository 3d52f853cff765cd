import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A unix datagram socket of a test's own, passed to a daemon as `NOTIFY_SOCKET`: it receives
/// what the daemon tells systemd, one datagram per message.
final class NotifySocket: Sendable {
    let path: String
    private let descriptor: Int32

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
            ).path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw DaemonProcessError(message: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            close(descriptor)
            throw DaemonProcessError(message: "bind \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next datagram, waiting at most `limit`; `nil` when none came.
    func receive(limit: Duration = .seconds(30)) async throws -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var buffer = [UInt8](repeating: 0, count: 4096)
        while clock.now < deadline {
            let received = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if received >= 0 { return String(decoding: buffer.prefix(received), as: UTF8.self) }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
