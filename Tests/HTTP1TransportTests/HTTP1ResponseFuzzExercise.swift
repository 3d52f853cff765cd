import EventLoops
import Foundation
import Glibc
import HTTP1Transport
import HTTPTypes
import ServiceCore
import Synchronization

/// What the HTTP1Response fuzz target and its regression test run for one input: the client
/// transport's fast path (``HTTP1Transport`` on its event loop, http-parser) sends a request to a
/// server on 127.0.0.1 that answers with the input's bytes (after the first, which chooses `GET`
/// or `HEAD`), written in pieces of 1 to 64 bytes cut at points derived from the input, then
/// closes. The transport must return within its timeout with an answer or a `TransportError`;
/// an answer must have a final status, field values without line breaks, a body within the
/// limit (none for `HEAD`). When the answer is plain (interim heads, then a final head, each one
/// status line and fields of token names and visible values, one `Content-Length` or none and no
/// `Transfer-Encoding`) and within the limits, the transport must return it, with the final
/// head's status and exactly the body that head frames. A difference is a
/// `HTTP1ResponseFuzzExercise.Violation`.
///
/// The same file is compiled into the libFuzzer binary (Tools/fuzz/run) and into the test target.
enum HTTP1ResponseFuzzExercise {
    /// A broken invariant, with the answer concerned.
    struct Violation: Error, CustomStringConvertible {
        var message: String
        var answer: [UInt8]
        var description: String {
            "\(message); answer: \(String(decoding: answer.prefix(2048), as: UTF8.self).debugDescription)"
        }
    }

    /// The largest body the transport takes here, so inputs reach the limit.
    static let bodyLimit = 1024
    /// The largest head the transport takes here (the transport counts fewer bytes of it).
    static let headLimit = 2048

    /// The bytes the server answers with, for the current input.
    private static let answer = Mutex<[UInt8]>([])

    /// The port of the server; it answers every connection with ``answer``.
    static let port: Int = startServer()

    static let loops: EventLoopGroup = {
        do {
            return try EventLoopGroup(loopCount: 1, name: "fuzz-http1")
        } catch {
            fatalError("the fuzz loop did not start: \(error)")
        }
    }()

    static let transport = HTTP1Transport(
        configuration: .init(
            defaultTimeout: .seconds(5), connectTimeout: .seconds(5), maxIdleConnectionsPerHost: 0,
            maxResponseBodySize: bodyLimit, maxResponseHeadSize: headLimit),
        eventLoops: loops, fallback: Refusing())

    /// The fallback: every request must take the fast path.
    struct Refusing: Transport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            throw TransportError(.other, "the fuzz request went to the fallback")
        }
    }

    static func run(_ input: [UInt8]) async throws(Violation) {
        guard let first = input.first else { return }
        let bytes = Array(input.dropFirst())
        answer.withLock { $0 = bytes }
        let head = first & 1 == 1
        let request = HTTPRequest(
            method: head ? .head : .get, url: URL(string: "http://127.0.0.1:\(port)/fuzz")!, timeout: .seconds(5))
        let started = ContinuousClock.now
        let result: Result<HTTPResponse, any Error>
        do {
            let response = try await withTaskExecutorPreference(loops.loops[0]) { try await transport.send(request) }
            result = .success(response)
        } catch {
            result = .failure(error)
        }
        guard ContinuousClock.now - started < .seconds(15) else {
            throw Violation(message: "the transport took longer than its timeout", answer: bytes)
        }
        switch result {
        case .failure(let error):
            guard error is TransportError else {
                throw Violation(message: "an error that is not a TransportError: \(error)", answer: bytes)
            }
            if let plain = PlainAnswer(bytes), plain.isWithinLimits(head: head) {
                throw Violation(message: "a plain answer within the limits failed: \(error)", answer: bytes)
            }
        case .success(let response):
            try check(response, answer: bytes, head: head)
        }
    }

    private static func check(_ response: HTTPResponse, answer: [UInt8], head: Bool) throws(Violation) {
        guard (101...999).contains(response.status), !(102..<200).contains(response.status) else {
            throw Violation(message: "an answer with status \(response.status)", answer: answer)
        }
        for field in response.headers.fields {
            guard !field.name.isEmpty,
                !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
            else {
                throw Violation(message: "a malformed field \(field.name.debugDescription)", answer: answer)
            }
        }
        guard response.body.count <= bodyLimit else {
            throw Violation(message: "a body of \(response.body.count) bytes, over the limit", answer: answer)
        }
        guard !head || response.body.isEmpty else {
            throw Violation(message: "a body in the answer to HEAD", answer: answer)
        }
        guard let plain = PlainAnswer(answer) else { return }
        guard response.status == plain.status else {
            throw Violation(message: "status \(response.status), the head says \(plain.status)", answer: answer)
        }
        guard let expected = plain.body(head: head) else {
            throw Violation(message: "an answer returned although its body is shorter than announced", answer: answer)
        }
        guard response.body.elementsEqual(expected) else {
            throw Violation(
                message: "a body of \(response.body.count) bytes, the head frames \(expected.count)", answer: answer)
        }
    }

    /// An answer whose framing is beyond doubt, read here apart from http-parser: interim heads
    /// (1xx but 101, HTTP/1.1, no `Connection` field), which end at their blank line whatever
    /// their fields say (RFC 9112 §6.3), then the final head and what follows it.
    struct PlainAnswer {
        var status: Int
        var contentLength: Int?
        /// The bytes after the final head.
        var rest: ArraySlice<UInt8>
        /// The bytes up to the end of the final head, interim heads included.
        var headsSize: Int { rest.startIndex }

        init?(_ bytes: [UInt8]) {
            var start = 0
            // Each interim head takes at least 16 bytes, so the loop ends.
            while true {
                guard let head = Head(bytes, from: start) else { return nil }
                if (100...199).contains(head.status) {
                    guard head.status != 101, head.isHTTP11, !head.hasConnection else { return nil }
                    start = head.end
                    continue
                }
                guard (200...599).contains(head.status) else { return nil }
                status = head.status
                contentLength = head.contentLength
                rest = bytes[head.end...]
                return
            }
        }

        /// The body the final head frames (none for the answer to `HEAD`, a 204 or a 304), or
        /// `nil` when fewer bytes follow than it announces.
        func body(head: Bool) -> ArraySlice<UInt8>? {
            if head || status == 204 || status == 304 { return [] }
            guard let contentLength else { return rest }
            return rest.count >= contentLength ? rest.prefix(contentLength) : nil
        }

        /// Whether the transport must take the answer: its heads and body within the limits,
        /// and the body complete.
        func isWithinLimits(head: Bool) -> Bool {
            guard headsSize <= headLimit, let body = body(head: head) else { return false }
            return body.count <= bodyLimit
        }
    }

    /// One plain head: a status line and fields, up to its blank line.
    struct Head {
        var status: Int
        var contentLength: Int?
        var isHTTP11: Bool
        /// Whether a `Connection` field is present (`close` ends an interim answer's connection).
        var hasConnection = false
        /// Where the bytes after the blank line start.
        var end: Int

        init?(_ bytes: [UInt8], from start: Int) {
            let end: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
            guard bytes.count - start >= 4,
                let headEnd = (start...bytes.count - 4).first(where: { bytes[$0..<$0 + 4].elementsEqual(end) })
            else { return nil }
            let text = String(decoding: bytes[start..<headEnd], as: UTF8.self)
            var lines = text.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst()
            let statusBytes = Array(statusLine.utf8)
            guard statusBytes.count >= 12, statusLine.hasPrefix("HTTP/1.1 ") || statusLine.hasPrefix("HTTP/1.0 "),
                statusBytes[12...].allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) }),
                statusBytes.count == 12 || statusBytes[12] == 0x20,
                let status = Int(String(decoding: statusBytes[9..<12], as: UTF8.self)), (100...599).contains(status)
            else { return nil }
            var lengths: [Int] = []
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
                let tokenCharacters = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz"
                guard !name.isEmpty, name.allSatisfy({ tokenCharacters.contains($0) }),
                    value.utf8.allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) }), name != "transfer-encoding"
                else { return nil }
                if name == "connection" { hasConnection = true }
                if name == "content-length" {
                    guard value.utf8.count <= 9, !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                        let length = Int(value)
                    else { return nil }
                    lengths.append(length)
                }
            }
            guard lengths.count <= 1 else { return nil }
            self.status = status
            self.contentLength = lengths.first
            self.isHTTP11 = statusLine.hasPrefix("HTTP/1.1 ")
            self.end = headEnd + 4
        }
    }

    /// Starts the answering server on a thread of its own; returns its port.
    private static func startServer() -> Int {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(listener >= 0, "socket: errno \(errno)")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        precondition(bound, "bind or listen on 127.0.0.1: errno \(errno)")
        let thread = Thread {
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 { continue }  // EINTR from the fuzzer's timer, or a connection reset.
                serve(connection)
                _ = close(connection)
            }
        }
        thread.start()
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Reads the request head, then writes the answer in pieces and closes the write side.
    private static func serve(_ connection: Int32) {
        var noDelay: Int32 = 1
        _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(5)
        while !request.suffix(4).elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) && ContinuousClock.now < deadline {
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 || errno == EINTR else { return }
            guard poller.revents != 0 else { continue }
            let count = read(connection, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            request += buffer[..<count]
        }
        let bytes = answer.withLock { $0 }
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var offset = 0
        while offset < bytes.count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let size = min(bytes.count - offset, Int(state >> 58) + 1)
            let sent = bytes[offset..<offset + size].withUnsafeBytes {
                send(connection, $0.baseAddress, size, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return }
            offset += sent
        }
        _ = shutdown(connection, Int32(SHUT_WR))
    }
}
