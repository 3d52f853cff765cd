import Foundation
import Testing

@testable import SwiftyDaemon

#if canImport(Glibc)
    import Glibc
#endif

struct SystemdNotifierTests {
    @Test func sendsReadyToTheNotifySocket() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        ).path
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": path]).notify("READY=1"))
        var buffer = [UInt8](repeating: 0, count: 64)
        let received = recv(descriptor, &buffer, buffer.count, 0)
        #expect(received == 7)
        #expect(String(decoding: buffer.prefix(max(0, received)), as: UTF8.self) == "READY=1")
    }

    @Test func withoutASocketNothingIsSent() {
        #expect(!SystemdNotifier(environment: [:]).notify("READY=1"))
    }
}
