import Foundation
import Glibc
import HTTPServer
import HTTPTypes
import Synchronization

/// What the fuzz target and its regression test run for one input: the bytes are sent to a real
/// server on 127.0.0.1 over one connection, cut at points derived from the input itself, then the
/// client shuts its write side and reads until the server closes. The answers must satisfy the
/// edge's invariants; a violation is a `FuzzExercise.Violation`.
///
/// The same file is compiled into the libFuzzer binary (Tools/fuzz/run) and into the test target.
enum FuzzExercise {
    /// An invariant the answers broke, with what was received.
    struct Violation: Error, CustomStringConvertible {
        var message: String
        var received: [UInt8]
        var description: String {
            "\(message); received: \(String(decoding: received.prefix(2048), as: UTF8.self).debugDescription)"
        }
    }

    /// The methods of the requests the handler was given for the current input, in order.
    private static let handled = Mutex<[String]>([])

    /// The server every input goes to: one loop, small limits so inputs reach them.
    static let server: HTTPServer = {
        let configuration = HTTPServer.Configuration(
            threadCount: 1, connectionTimeout: .seconds(5), headTimeout: .seconds(5), minimumBodyRate: 0,
            maxRequestsPerConnection: 16, maxBodyBytes: 2048, maxHeaderBytes: 1024, maxHeaderCount: 16,
            maxTargetBytes: 256, maxQueryParameters: 8, lingerTimeout: .milliseconds(50), handlerTimeout: nil)
        let server = HTTPServer(configuration: configuration) { request in
            let index = handled.withLock { methods in
                methods.append(request.method)
                return methods.count - 1
            }
            // Some requests answer after a hop, so pipelined answers must wait for each other.
            if request.path.contains("y") { await Task.yield() }
            return ServerResponse(status: 200, headers: ["x-n": "\(index)"], body: Data("ok".utf8))
        }
        do {
            try server.start()
        } catch {
            fatalError("the fuzz server did not start: \(error)")
        }
        return server
    }()

    /// Sends `input` and checks the answers; throws the first broken invariant.
    static func run(_ input: [UInt8]) throws(Violation) {
        let port = server.port
        handled.withLock { $0.removeAll() }
        let fd = connectLoopback(port: port)
        defer { _ = Glibc.close(fd) }
        var received: [UInt8] = []
        // Split points from an FNV-1a hash of the input: the same input always splits the same way.
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in input { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var offset = 0
        while offset < input.count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let size = min(input.count - offset, 1 + Int((state >> 33) % 48))
            let sent = input[offset..<offset + size].withUnsafeBytes {
                send(fd, $0.baseAddress, size, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            // The server may close mid-input (after a refusal): the rest is not sent.
            if sent <= 0 { break }
            offset += sent
            readAvailable(fd, into: &received)
        }
        _ = shutdown(fd, Int32(SHUT_WR))
        guard readToEnd(fd, into: &received, within: .seconds(5)) else {
            throw Violation(message: "the server did not close within 5 s of the client's end", received: received)
        }
        try check(received, methods: handled.withLock { $0 })
        // The connection's slot comes back once the server has closed its side.
        let until = ContinuousClock.now + .seconds(2)
        while server.connectionCount != 0 || server.inFlightCount != 0 {
            guard ContinuousClock.now < until else {
                throw Violation(message: "connection or request still counted after close", received: received)
            }
            usleep(200)
        }
    }

    /// Checks the answer stream: complete responses, each with its framing, handler answers in the
    /// order the handler was called and at most once each, and a refusal or `Connection: close`
    /// only as the last answer.
    static func check(_ bytes: [UInt8], methods: [String]) throws(Violation) {
        var position = 0
        var answered = 0
        var closed = false
        while position < bytes.count {
            guard !closed else { throw Violation(message: "bytes after a closing answer", received: bytes) }
            guard let headEnd = find([13, 10, 13, 10], in: bytes, from: position) else {
                throw Violation(message: "an incomplete response head", received: bytes)
            }
            let lines = String(decoding: bytes[position..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
            let statusLine = lines[0].split(separator: " ")
            guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
                throw Violation(message: "a bad status line \(lines[0].debugDescription)", received: bytes)
            }
            var fields: [String: [String]] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else {
                    throw Violation(message: "a bad field line \(line.debugDescription)", received: bytes)
                }
                fields[line[..<colon].lowercased(), default: []].append(
                    line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            position = headEnd + 4
            // An interim `100 Continue` has no body and is followed by its request's answer.
            if status == 100 { continue }
            guard let lengths = fields["content-length"], lengths.count == 1, let length = Int(lengths[0]) else {
                throw Violation(message: "an answer \(status) without one Content-Length", received: bytes)
            }
            var bodyless = false
            if status == 200 {
                guard fields["x-n"] == ["\(answered)"], answered < methods.count else {
                    throw Violation(
                        message: "handler answer \(fields["x-n"] ?? []) out of order (expected \(answered))",
                        received: bytes)
                }
                bodyless = methods[answered] == "HEAD"
                answered += 1
            } else {
                // The handler only answers 200: anything else is the server's refusal.
                guard fields["connection"] == ["close"] else {
                    throw Violation(message: "refusal \(status) without Connection: close", received: bytes)
                }
            }
            if fields["connection"] == ["close"] { closed = true }
            if !bodyless {
                guard position + length <= bytes.count else {
                    throw Violation(message: "a body shorter than its Content-Length", received: bytes)
                }
                position += length
            }
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && Array(bytes[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }

    private static func connectLoopback(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket: errno \(errno)")
        var noDelay: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 && errno == EINTR {
            // Interrupted by a signal (libFuzzer's timer): the connection completes on its own.
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            while poll(&poller, 1, 5000) < 0 && errno == EINTR {}
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
            precondition(failure == 0, "connect to 127.0.0.1:\(port): errno \(failure)")
            return fd
        }
        precondition(result == 0, "connect to 127.0.0.1:\(port): errno \(errno)")
        return fd
    }

    /// Reads what is there without waiting.
    private static func readAvailable(_ fd: Int32, into received: inout [UInt8]) {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { return }
            received += chunk[0..<count]
        }
    }

    /// Reads until the end of the stream (or a reset); false when `within` passes first.
    private static func readToEnd(_ fd: Int32, into received: inout [UInt8], within: Duration) -> Bool {
        let until = ContinuousClock.now + within
        var chunk = [UInt8](repeating: 0, count: 16384)
        while ContinuousClock.now < until {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 || errno == EINTR else { return true }
            guard poller.revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                received += chunk[0..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                return true
            }
        }
        return false
    }
}
