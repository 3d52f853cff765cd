import Foundation
import Glibc

/// A blocking TCP client for tests (the framing corpus and the server's own tests): plain POSIX sockets with send and receive timeouts, so a test
/// can send exactly the bytes it wants (malformed ones too) and never hangs.
public final class RawConnection {
    /// A failure of the raw client, with the errno text.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public var description: String
    }

    /// One parsed response.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// The fields, in order.
        public var headers: [(name: String, value: String)]
        /// The body.
        public var body: [UInt8]

        /// The first value of the field `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as UTF-8 text.
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host`:`port` (loopback only) with `timeout` for every send and receive, from
    /// the IPv4 address `source` when given (another loopback address, as another client).
    public init(port: Int, host: String = "127.0.0.1", source: String? = nil, timeout: Duration = .seconds(5)) throws {
        let isV6 = host.contains(":")
        fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if isV6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            if let source {
                var local = sockaddr_in()
                local.sin_family = sa_family_t(AF_INET)
                inet_pton(AF_INET, source, &local.sin_addr)
                let bound = withUnsafePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard bound == 0 else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        // On failure `deinit` still runs (every property is set) and closes the socket: closing it
        // here too could close a descriptor another thread has been handed in between.
        guard result == 0 else { throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
    }

    deinit { Glibc.close(fd) }

    /// Sends every byte of `text` (as UTF-8).
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends every byte of `bytes`.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Whether bytes (or the end of the stream) are waiting to be read, without waiting.
    public func hasSomethingToRead() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return count >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Shuts the write side: the server reads the end of the stream, the client can still read.
    public func shutdownWrite() { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { return false }
        guard count > 0 else { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one response; `bodyless` for answers to HEAD.
    public func readResponse(bodyless: Bool = false) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find(separator, in: buffer)
            if headEnd == nil {
                guard try fill() else { throw Failure(description: "connection closed before a full response head") }
            }
        }
        let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = Response(status: status, headers: headers, body: [])
        if bodyless || status == 204 || status == 304 || (100..<200).contains(status) { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            while buffer.count < length {
                guard try fill() else { throw Failure(description: "connection closed inside the body") }
            }
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try readChunked()
        } else {
            while try fill() {}
            response.body = buffer
            buffer.removeAll()
        }
        return response
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            var lineEnd = Self.find([13, 10], in: buffer)
            while lineEnd == nil {
                guard try fill() else { throw Failure(description: "closed inside a chunk size") }
                lineEnd = Self.find([13, 10], in: buffer)
            }
            let sizeText = String(decoding: buffer[0..<lineEnd!], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw Failure(description: "bad chunk size")
            }
            buffer.removeFirst(lineEnd! + 2)
            while buffer.count < size + 2 {
                guard try fill() else { throw Failure(description: "closed inside a chunk") }
            }
            if size == 0 {
                buffer.removeFirst(2)
                return body
            }
            body.append(contentsOf: buffer[0..<size])
            buffer.removeFirst(size + 2)
        }
    }

    /// Whether the peer closes the connection (or resets it) within the receive timeout, with no
    /// further bytes than those already read.
    public func waitForClose() -> Bool {
        do {
            while try fill() {}
            return true
        } catch {
            return errno == ECONNRESET
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }
}
