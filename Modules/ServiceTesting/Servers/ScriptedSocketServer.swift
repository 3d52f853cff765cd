public import Foundation
import Synchronization

/// A tiny HTTP peer on a raw POSIX socket that misbehaves on purpose: it runs a fixed script of
/// reads, writes, pauses and closes on every connection, on 127.0.0.1 and an ephemeral port.
///
/// Use it for what a correct server will not do: interim `1xx` answers, a connection closed in
/// the middle of a body, a reset, a stall.
///
/// ```swift
/// try await ScriptedSocketServer.withServer(script: [
///     .readRequest,
///     .send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\ntoo short"),
///     .close,
/// ]) { server in
///     await #expect(throws: TransportError.self) { try await transport.send(.init(method: .get, url: server.baseURL)) }
/// }
/// ```
///
/// Every wait is bounded (a read gives up after 10 s), and ``stop()`` ends every connection.
/// Its threads are plain threads (never the tasks' cooperative pool), so a stalled peer cannot
/// starve the tests around it.
public final class ScriptedSocketServer: Sendable {
    /// One step of the script run on each connection.
    public enum Step: Sendable {
        /// Reads one request: its head, and a body of its `Content-Length` (chunked bodies are not
        /// understood).
        case readRequest
        /// Writes these bytes.
        case write(Data)
        /// Waits (cut short by ``ScriptedSocketServer/stop()``).
        case pause(Duration)
        /// Closes the connection in order (FIN); later steps are skipped.
        case close
        /// Resets the connection (RST); later steps are skipped.
        case reset

        /// Writes this text as UTF-8 (write `\r\n` line ends yourself).
        public static func send(_ text: String) -> Step { .write(Data(text.utf8)) }
    }

    /// The script run on every connection.
    public let script: [Step]
    /// The port on 127.0.0.1 it listens on.
    public let port: Int
    private let listener: Int32
    private let stopping = Atomic<Bool>(false)
    private let activeThreads = Atomic<Int>(0)
    private let accepted = Atomic<Int>(0)

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// How many connections were accepted so far.
    public var connectionCount: Int { accepted.load(ordering: .relaxed) }

    /// Binds 127.0.0.1 on an ephemeral port and starts accepting.
    /// - Throws: ``TestServerError`` with code `socketFailed`.
    public init(script: [Step]) throws {
        self.script = script
        (listener, port) = try ScriptedSocketServer.listen()
        activeThreads.add(1, ordering: .relaxed)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "swifty.scripted-server"
        thread.start()
    }

    deinit {
        stopping.store(true, ordering: .relaxed)
    }

    /// Stops accepting and ends every connection; returns at once (the server's threads notice
    /// within about 50 ms).
    public func stop() {
        stopping.store(true, ordering: .releasing)
    }

    /// Stops the server and returns once every thread of it has ended (waiting at most 2 s),
    /// without blocking the calling thread.
    public func shutdown() async {
        stop()
        for _ in 0..<400 where activeThreads.load(ordering: .acquiring) > 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Runs `body` with a started server and shuts it down afterwards, whether `body` returns or throws.
    public static func withServer<T>(
        script: [Step],
        _ body: (ScriptedSocketServer) async throws -> T
    ) async throws -> T {
        let server = try ScriptedSocketServer(script: script)
        let result: T
        do {
            result = try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        return result
    }

    /// A port on 127.0.0.1 that nothing listens on: bound to find a free one, then closed, so a
    /// connection there is refused.
    /// - Throws: ``TestServerError`` with code `socketFailed`.
    public static func closedPort() throws -> Int {
        let (socket, port) = try listen()
        close(socket)
        return port
    }

    // MARK: Threads

    private func acceptLoop() {
        defer {
            close(listener)
            activeThreads.subtract(1, ordering: .releasing)
        }
        while !stopping.load(ordering: .acquiring) {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            accepted.add(1, ordering: .relaxed)
            var one: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            activeThreads.add(1, ordering: .relaxed)
            let thread = Thread { [self] in
                run(on: connection)
                activeThreads.subtract(1, ordering: .releasing)
            }
            thread.start()
        }
    }

    private func run(on connection: Int32) {
        var open = true
        defer { if open { close(connection) } }
        for step in script {
            if stopping.load(ordering: .acquiring) { return }
            switch step {
            case .readRequest:
                guard readRequest(from: connection) else { return }
            case .write(let bytes):
                guard write(bytes, to: connection) else { return }
            case .pause(let duration):
                let end = ContinuousClock.now + duration
                while ContinuousClock.now < end, !stopping.load(ordering: .acquiring) { usleep(5_000) }
            case .close:
                _ = Glibc.shutdown(connection, Int32(SHUT_WR))
                drain(connection)
                close(connection)
                open = false
                return
            case .reset:
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                close(connection)
                open = false
                return
            }
        }
    }

    /// Reads until the end of the head and then `Content-Length` body bytes; `false` on EOF,
    /// error, stop or 10 s without completing.
    private func readRequest(from connection: Int32) -> Bool {
        var received: [UInt8] = []
        var bodyNeeded: Int?
        var headEnd = 0
        let deadline = ContinuousClock.now + .seconds(10)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while ContinuousClock.now < deadline, !stopping.load(ordering: .acquiring) {
            if let bodyNeeded, received.count - headEnd >= bodyNeeded { return true }
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            received.append(contentsOf: buffer[0..<count])
            if bodyNeeded == nil, let end = ScriptedSocketServer.endOfHead(received) {
                headEnd = end
                bodyNeeded = ScriptedSocketServer.contentLength(in: received[0..<end]) ?? 0
            }
        }
        return false
    }

    private func write(_ bytes: Data, to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads what the peer still sends for a moment, so the FIN is not turned into a RST by
    /// unread data.
    private func drain(_ connection: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<4 {
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 20) > 0 else { return }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
        }
    }

    // MARK: Helpers

    private static func listen() throws -> (Int32, Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestServerError(.socketFailed, "socket(): \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0, Glibc.listen(socket, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw TestServerError(.socketFailed, "binding 127.0.0.1: \(reason)")
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard named == 0 else {
            close(socket)
            throw TestServerError(.socketFailed, "getsockname(): \(String(cString: strerror(errno)))")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index - 3] == 13 && bytes[index - 2] == 10 && bytes[index - 1] == 13 && bytes[index] == 10 {
            return index + 1
        }
        return nil
    }

    private static func contentLength(in head: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: head, as: UTF8.self)
        for line in text.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }
}
