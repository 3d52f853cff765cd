import AppLogging
import CHTTPParser
import EventLoops
import Foundation
import Glibc
import Synchronization

/// The server's part of one event loop: it accepts from the shared listening socket, keeps the
/// connections it accepted, and applies their deadlines on a periodic sweep.
final class ServerLoop: @unchecked Sendable {
    // `@unchecked Sendable`: every mutable property is touched on `loop`'s thread only; other
    // threads reach it through `loop.execute`.

    let loop: EventLoop
    let core: ServerCore
    let listener: Int32
    /// The handler tasks of this loop's connections.
    let workers: HandlerWorkers
    private var connections: [Int32: ServerConnection] = [:]
    private var accepting = false
    private var sweepTimer: IOTimerID?
    private var cachedSecond = 0
    private var cachedDateLine: [UInt8] = []
    private let sweepInterval: Duration

    init(loop: EventLoop, core: ServerCore, listener: Int32) {
        self.loop = loop
        self.core = core
        self.listener = listener
        self.workers = HandlerWorkers(loop: loop, core: core)
        let configuration = core.configuration
        var shortest = Duration.milliseconds(250)
        for deadline in [
            configuration.headTimeout, configuration.connectionTimeout, configuration.lingerTimeout,
            configuration.handlerTimeout ?? .seconds(1),
        ] where deadline > .zero {
            shortest = min(shortest, deadline / 4)
        }
        sweepInterval = max(shortest, .milliseconds(10))
    }

    /// How many connections this loop has open.
    var connectionCount: Int { connections.count }

    /// Starts accepting; loop thread only.
    func start() -> Bool {
        accepting = loop.watch(listener, for: .readable) { [unowned self] _ in self.acceptAll() }
        loop.whenStopping { [self] in
            self.stopAccepting()
            self.closeAll()
        }
        scheduleSweep()
        return accepting
    }

    /// Stops accepting (the listening socket stays open for the other loops); loop thread only.
    func stopAccepting() {
        guard accepting else { return }
        accepting = false
        loop.unwatch(listener)
    }

    private func acceptAll() {
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            let fd = swifty_http1_accept(listener, &storage)
            guard fd >= 0 else {
                if errno == EMFILE || errno == ENFILE {
                    core.logger.warning("accept failed: no descriptors left", metadata: ["errno": "\(errno)"])
                }
                return
            }
            let remote = Self.address(of: storage)
            guard core.admit(remote) else {
                // Past a connection limit: closed at once, never queued.
                _ = Glibc.close(fd)
                continue
            }
            let connection = ServerConnection(
                fd: fd, loop: loop, core: core, owner: self, remote: remote, now: .now)
            connections[fd] = connection
            connection.open()
        }
    }

    /// Removes a closed connection.
    func forget(_ connection: ServerConnection) {
        if connections[connection.fd] === connection { connections[connection.fd] = nil }
    }

    private func scheduleSweep() {
        sweepTimer = loop.schedule(at: .now + sweepInterval) { [weak self] in
            guard let self else { return }
            let now = ContinuousClock.now
            for connection in Array(connections.values) { connection.checkDeadlines(now: now) }
            scheduleSweep()
        }
    }

    /// For a drain: closes the connections that are between requests.
    func closeIdle() {
        for connection in Array(connections.values) { connection.closeIfIdle() }
    }

    /// Answers every request still with its handler (`response`, then close).
    func answerUnfinished(with response: ServerResponse) -> Int {
        var answered = 0
        for connection in Array(connections.values) where connection.phase == .handling {
            connection.answerInPlaceOfHandler(response, close: true)
            answered += 1
        }
        return answered
    }

    /// How many connections are in the middle of a request (reading it, handling it, or writing
    /// its last answer).
    var busyCount: Int {
        connections.values.reduce(0) { count, connection in
            switch connection.phase {
            case .head, .body, .handling, .closing: count + 1
            case .idle, .lingering, .closed: count
            }
        }
    }

    /// Closes every connection whose answers are all written.
    func closeFinished() {
        for connection in Array(connections.values) where connection.outputStart == connection.output.count {
            connection.close()
        }
    }

    /// Closes everything at once.
    func closeAll() {
        if let sweepTimer { loop.cancelTimer(sweepTimer) }
        sweepTimer = nil
        for connection in Array(connections.values) { connection.close() }
        workers.stop()
    }

    /// The `Date` field line for an answer sent now, made once a second.
    func dateLine() -> [UInt8] {
        var now = time(nil)
        guard now != cachedSecond else { return cachedDateLine }
        cachedSecond = now
        var parts = tm()
        gmtime_r(&now, &parts)
        var text = [CChar](repeating: 0, count: 64)
        let count = strftime(&text, text.count, "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &parts)
        cachedDateLine = text[0..<count].map { UInt8(bitPattern: $0) }
        return cachedDateLine
    }

    private static func address(of storage: sockaddr_storage) -> RemoteAddress {
        withUnsafeBytes(of: storage) { raw -> RemoteAddress in
            switch Int32(storage.ss_family) {
            case AF_INET:
                // sin_addr sits after the family and the port.
                return RemoteAddress(family: AF_INET, bytes: UnsafeRawBufferPointer(rebasing: raw[4..<8]))
            case AF_INET6:
                let address = RemoteAddress(family: AF_INET6, bytes: UnsafeRawBufferPointer(rebasing: raw[8..<24]))
                return address
            default:
                return .unknown
            }
        }
    }
}
