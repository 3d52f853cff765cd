import Foundation
import Glibc

/// A blocking TCP client to 127.0.0.1 with send and receive timeouts, so the corpus can send
/// exactly its bytes (malformed ones too) and never hangs.
final class FramingConnection {
    /// A failure of the client, with the errno text.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One parsed response.
    struct Response: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port` with `timeout` for every send and receive.
    init(port: Int, timeout: Duration) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // On failure `deinit` still runs and closes the socket.
        guard result == 0 else { throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
    }

    deinit { Glibc.close(fd) }

    /// Sends every byte of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Shuts the write side: the server reads the end of the stream, the client can still read.
    func shutdownWrite() { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { return false }
        guard count > 0 else { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    /// Reads one response framed by `Content-Length` (every answer of these servers is);
    /// `bodyless` for answers to HEAD.
    func readResponse(bodyless: Bool) throws -> Response {
        var headEnd = Self.find([13, 10, 13, 10], in: buffer)
        while headEnd == nil {
            guard try fill() else { throw Failure(description: "connection closed before a full response head") }
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
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
        let length = response.header("Content-Length").flatMap(Int.init) ?? 0
        while buffer.count < length {
            guard try fill() else { throw Failure(description: "connection closed inside the body") }
        }
        response.body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return response
    }

    /// Whether the peer closes the connection (or resets it) within the receive timeout, with no
    /// further bytes than those already read.
    func waitForClose() -> Bool {
        do {
            while try fill() {}
            return buffer.isEmpty
        } catch {
            return errno == ECONNRESET
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}
