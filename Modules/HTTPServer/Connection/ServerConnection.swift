import AppLogging
import CHTTPParser
import EventLoops
import Foundation
import Glibc
import HTTP1Parsing
import HTTPTypes
import Synchronization

/// One accepted connection: reads requests with http-parser, hands each complete one to the
/// handler in a task on the connection's loop, and writes the answers in order.
///
/// One request is handled at a time: the parser pauses at the end of each request, and bytes of
/// pipelined requests wait in the read buffer until the answer is written (answers stay in
/// order). Reading stops while the unsent answers pass ``HTTPServer/Configuration/maxPendingWriteBytes``
/// or the read buffer is full, so a slow reader cannot make the server buffer without bound.
final class ServerConnection: @unchecked Sendable {
    // `@unchecked Sendable`: every mutable property is touched on `loop`'s thread only; a handler's
    // task hands its answer back through `loop.execute` unless it already runs there.

    /// Where the connection is in its current request.
    enum Phase: Equatable {
        /// Waiting for the first byte of the next request.
        case idle
        /// Reading the request head.
        case head
        /// Reading the request body.
        case body
        /// The handler is answering.
        case handling
        /// The last answer is queued: no more requests are read; the connection closes after it.
        case closing
        /// The answer is sent and the write side shut: reading and discarding until the client closes.
        case lingering
        /// Closed.
        case closed
    }

    let fd: Int32
    let loop: EventLoop
    let core: ServerCore
    /// Strong (an unowned reference costs a slow atomic check per answer, the loop having weak
    /// references too); the owner drops the connection when it closes, which ends the cycle.
    let owner: ServerLoop
    let remote: RemoteAddress
    let parser = HTTP1Parser(HTTP_REQUEST)

    var phase = Phase.idle
    /// When the current phase's clock started: idle since, head's first byte, body's start, linger's start.
    var phaseStart: ContinuousClock.Instant
    var requestsServed = 0

    // The read buffer: bytes [start, end) are received and not parsed yet.
    let capacity: Int
    let buffer: UnsafeMutableRawPointer
    var start = 0
    var end = 0
    var scanner = HeadScanner()
    /// The absolute offset of the next byte the scanner has not seen.
    var scanOffset = 0
    /// Re-entrancy guard of ``process()``.
    var processing = false

    // The answers not written yet: bytes [outputStart, output.count).
    var output: [UInt8] = []
    var outputStart = 0
    var interest: IOInterest = []
    /// Whether the connection is watched by the loop.
    var watched = false
    /// Whether the client has shut its side: nothing more is read.
    var readSideDone = false

    // The request being read; filled by the parser's callbacks.
    var request = RequestParts()
    var refusal: Refusal?
    var messageComplete = false
    /// Data bytes left in the current chunk of a chunked body.
    var chunkRemaining: UInt64 = 0
    /// How many bytes of the CRLF after a chunk's data are still to be checked (at `start`).
    var chunkEndLeft = 0

    // The request being handled.
    var generation: UInt64 = 0
    var handlerWorker: HandlerWorker?
    var handlerDeadline: ContinuousClock.Instant?
    var answerIsBodyless = false

    init(
        fd: Int32, loop: EventLoop, core: ServerCore, owner: ServerLoop, remote: RemoteAddress,
        now: ContinuousClock.Instant
    ) {
        self.fd = fd
        self.loop = loop
        self.core = core
        self.owner = owner
        self.remote = remote
        self.phaseStart = now
        self.capacity = core.configuration.connectionMemoryLimit
        self.buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        core.liveConnections.add(1, ordering: .relaxed)
    }

    deinit {
        buffer.deallocate()
        core.liveConnections.subtract(1, ordering: .relaxed)
    }

    /// Starts watching the socket.
    func open() {
        // Set here, not in `init`: the parser reaches the connection through this pointer while
        // the owner's registry keeps it alive.
        parser.bind(to: self)
        updateInterest()
    }

    // MARK: Reading

    private func onReady(_ readiness: IOReadiness) {
        if readiness.contains(.writable) || readiness.contains(.error) { flush() }
        guard phase != .closed else { return }
        if readiness.contains(.readable) || readiness.contains(.error) { readAvailable() }
        guard phase != .closed else { return }
        if readiness.contains(.error) && !interest.contains(.readable) && !interest.contains(.writable) {
            // A hang-up on a socket neither read nor written (its buffer full): it would be
            // reported on every turn.
            close()
            return
        }
        updateInterest()
    }

    private func readAvailable() {
        // A few reads per wake-up, so one busy connection does not starve the others.
        for _ in 0..<4 {
            if start == end {
                start = 0
                end = 0
                scanOffset = 0
            } else if end == capacity && start > 0 {
                let count = end - start
                buffer.copyMemory(from: buffer + start, byteCount: count)
                scanOffset -= start
                start = 0
                end = count
            }
            guard end < capacity else { return }
            let asked = capacity - end
            let received = recv(fd, buffer + end, asked, 0)
            if received > 0 {
                // Lingering: what arrives is read and dropped.
                if phase == .lingering { continue }
                end += received
                process()
                guard phase != .closed else { return }
                if received < asked { return }
                continue
            }
            if received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
            // The client closed (or the socket failed).
            peerClosed()
            return
        }
    }

    /// The client closed its side (or reset): a request in its head or body is dropped without an
    /// answer, a handler still running is cancelled.
    private func peerClosed() {
        switch phase {
        case .lingering, .idle, .head, .body, .handling:
            close()
        case .closing:
            // The last answer may still be flushed; the client may only have shut its write side.
            // Nothing more will be read (the end of the stream would be reported again and again).
            if outputStart == output.count { close() } else { readSideDone = true }
        case .closed:
            break
        }
    }

    /// Parses what is buffered: request after request, until one is being handled, the buffer
    /// is empty, a refusal, or too many answers are waiting to be written.
    func process() {
        guard !processing else { return }
        processing = true
        defer { processing = false }
        while start < end {
            switch phase {
            case .idle:
                phase = .head
                phaseStart = .now
            case .head, .body:
                break
            case .handling, .closing, .lingering, .closed:
                return
            }
            if output.count - outputStart > core.configuration.maxPendingWriteBytes { return }
            if !scanner.finished && scanOffset < end {
                switch scanner.scan(UnsafeRawBufferPointer(start: buffer + scanOffset, count: end - scanOffset)) {
                case .success(let count): scanOffset += count
                case .failure(let refusal):
                    refuse(refusal)
                    return
                }
            }
            if chunkEndLeft > 0 && !checkChunkEnd(from: start) {
                refuse(.malformed("A chunk's data is not followed by CRLF."))
                return
            }
            let parsed = parser.execute(
                RequestParserSettings.pointer, (buffer + start).assumingMemoryBound(to: CChar.self), count: end - start)
            start += parsed
            if let refusal {
                refuse(refusal)
                return
            }
            if messageComplete {
                messageComplete = false
                dispatch()
                continue
            }
            let error = parser.error
            if error != HPE_OK {
                refuse(parserRefusal(error))
                return
            }
        }
    }

    /// Checks the bytes from `position` (up to `end`) against what is left of the CRLF that must
    /// follow a chunk's data; false on a mismatch.
    func checkChunkEnd(from position: Int) -> Bool {
        var position = position
        while chunkEndLeft > 0 && position < end {
            let expected: UInt8 = chunkEndLeft == 2 ? 0x0D : 0x0A
            guard buffer.load(fromByteOffset: position, as: UInt8.self) == expected else { return false }
            chunkEndLeft -= 1
            position += 1
        }
        return true
    }

    // MARK: Handling

    private func dispatch() {
        // A request asking to upgrade the protocol is answered in HTTP/1.1 and the connection
        // closed: the parser would not read what follows it as HTTP.
        request.keepAlive = parser.shouldKeepAlive && parser.state.pointee.upgrade == 0
        answerIsBodyless = request.method == HTTP_HEAD.rawValue
        scanner = HeadScanner()
        scanOffset = start
        phase = .handling
        guard !core.stopped.load(ordering: .relaxed) else {
            deliver(
                .problem(ProblemDetails(status: 503, detail: "The server is shutting down.", code: "shutting_down")),
                close: true)
            return
        }
        // The rest of the parts is kept (version and keep-alive decide the answer's framing) and
        // reset once the answer is written.
        generation &+= 1
        core.inFlight.add(1, ordering: .relaxed)
        handlerDeadline = core.configuration.handlerTimeout.map { .now + $0 }
        // The request is made inside its job and the job inside the call: bound to a name
        // first, each was copied when handed on.
        handlerWorker = owner.workers.start(
            HandlerWorker.Job(request: request.takeRequest(remote: remote), connection: self, generation: generation))
        // Run the loop's queue now: a handler that does not really wait answers here, before the
        // next pipelined request is parsed.
        loop.runQueuedJobs()
    }

    /// The handler's answer for request `generation`; dropped when that request was answered
    /// otherwise (timeout, shutdown) or the connection is gone.
    func answer(_ response: ServerResponse, generation: UInt64, close: Bool = false) {
        guard generation == self.generation, phase == .handling else { return }
        if response.resetsConnection {
            // `close()` finishes the handling.
            reset()
            return
        }
        finishHandling()
        deliver(response, close: close)
    }

    /// Forgets the running handler: the request counts as answered.
    private func finishHandling() {
        generation &+= 1
        handlerWorker = nil
        handlerDeadline = nil
        core.inFlight.subtract(1, ordering: .relaxed)
    }

    /// Writes `response` and goes on with the next request, or closes.
    private func deliver(_ response: ServerResponse, close: Bool) {
        requestsServed += 1
        let mustClose =
            close || !request.keepAlive || core.draining.load(ordering: .relaxed)
            || requestsServed >= core.configuration.maxRequestsPerConnection
        let isHTTP10 = request.major == 1 && request.minor == 0
        let outcome = ResponseEncoder.encode(
            response, into: &output, close: mustClose, keepAliveField: isHTTP10 && !mustClose,
            bodyless: answerIsBodyless, dateLine: owner.dateLine())
        if outcome.hasFaults { outcome.report(to: core.logger) }
        // Only this answer was to HEAD: a refusal of the next request must carry its body.
        answerIsBodyless = false
        request.reset()
        if mustClose || outcome.handlerAskedToClose {
            phase = .closing
            phaseStart = .now
        } else {
            phase = .idle
            phaseStart = .now
            parser.pause(false)
        }
        flush()
        guard phase != .closed else { return }
        if phase == .idle && !processing { process() }
        if phase != .closed { updateInterest() }
    }

    /// Answers the request being handled with `response` in the handler's place (timeout,
    /// shutdown) and cancels the handler's task.
    func answerInPlaceOfHandler(_ response: ServerResponse, close: Bool) {
        guard phase == .handling else { return }
        handlerWorker?.cancel()
        finishHandling()
        deliver(response, close: close)
    }

    /// Answers with the server's own problem for `refusal` and closes (after the answer is read).
    func refuse(_ refusal: Refusal) {
        self.refusal = nil
        var method = ""
        if request.methodKnown {
            let name = RequestParts.methodNames[Int(parser.state.pointee.method) % RequestParts.methodNames.count]
            method = RefusedRequest.standardMethods.contains(name) ? name : "other"
        } else if refusal.reason == .unknownMethod {
            method = "other"
        }
        core.report(
            refusal.reason, status: refusal.status, method: method, duration: phaseStart.duration(to: .now),
            remote: remote)
        request.keepAlive = false
        deliver(.problem(refusal.problem), close: true)
    }

    // MARK: Writing

    /// Writes what is queued; when the last answer is out, shuts the write side and lingers.
    func flush() {
        while outputStart < output.count {
            let sent = output.withUnsafeBytes { bytes in
                send(fd, bytes.baseAddress! + outputStart, bytes.count - outputStart, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                outputStart += sent
                continue
            }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            if sent < 0 && errno == EINTR { continue }
            close()
            return
        }
        output.removeAll(keepingCapacity: output.capacity <= 65536)
        outputStart = 0
        if phase == .closing {
            // Lingering close: the client still sending gets no reset that would destroy the answer.
            if readSideDone {
                // The client has shut its side already: nothing to wait for.
                close()
                return
            }
            _ = shutdown(fd, Int32(SHUT_WR))
            phase = .lingering
            phaseStart = .now
            start = 0
            end = 0
        } else if phase == .idle && start < end && !processing {
            // Back-pressure released: parse the requests that waited.
            process()
        }
    }

    func updateInterest() {
        guard phase != .closed else { return }
        var wanted: IOInterest = []
        if outputStart < output.count { wanted.insert(.writable) }
        let backPressure = output.count - outputStart > core.configuration.maxPendingWriteBytes
        if !readSideDone, end < capacity || start > 0, !backPressure || phase == .lingering {
            wanted.insert(.readable)
        }
        guard wanted != interest || !watched else { return }
        interest = wanted
        // A strong reference (an unowned one costs an atomic check per event): `close()` unwatches,
        // which ends the cycle, as does the loop's last turn.
        watched = loop.watch(fd, for: wanted) { readiness in self.onReady(readiness) }
        if !watched { close() }
    }

    /// Closes the socket with a TCP reset instead of an orderly close, dropping anything unsent.
    private func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    /// Closes the socket at once; a running handler is cancelled.
    func close() {
        guard phase != .closed else { return }
        if phase == .handling {
            handlerWorker?.cancel()
            finishHandling()
        }
        phase = .closed
        // Also when the last change of interest failed: the loop may still hold the handler,
        // which holds the connection.
        loop.unwatch(fd)
        watched = false
        _ = Glibc.close(fd)
        core.release(remote)
        owner.forget(self)
    }

    // MARK: Deadlines

    /// Applies the deadlines at `now`: closes an idle or lingering connection past its time,
    /// answers a head or body too slow with 408, a handler past its time with 504.
    func checkDeadlines(now: ContinuousClock.Instant) {
        let configuration = core.configuration
        let elapsed = phaseStart.duration(to: now)
        switch phase {
        case .idle:
            let limit = requestsServed == 0 ? configuration.headTimeout : configuration.connectionTimeout
            if limit > .zero && elapsed > limit { close() }
        case .head:
            if configuration.headTimeout > .zero && elapsed > configuration.headTimeout {
                refuse(Refusal(reason: .headTimeout, status: 408, detail: "The request head did not arrive in time."))
            }
        case .body:
            let grace = configuration.headTimeout
            guard configuration.minimumBodyRate > 0, elapsed > grace else { return }
            let seconds =
                Double((elapsed - grace).components.seconds) + Double((elapsed - grace).components.attoseconds) / 1e18
            if Double(request.body.count) < Double(configuration.minimumBodyRate) * seconds {
                refuse(Refusal(reason: .bodyTooSlow, status: 408, detail: "The request body arrived too slowly."))
            }
        case .handling:
            if let handlerDeadline, handlerDeadline <= now {
                core.logger.warning("answered a request whose handler ran past its timeout")
                answerInPlaceOfHandler(
                    .problem(
                        ProblemDetails(
                            status: 504, detail: "The request handler did not answer in time.", code: "handler_timeout")
                    ),
                    close: false)
            }
        case .closing:
            if elapsed > configuration.lingerTimeout + configuration.connectionTimeout { close() }
        case .lingering:
            if elapsed > configuration.lingerTimeout { close() }
        case .closed:
            break
        }
    }

    /// For a drain: closes the connection if it is between requests; otherwise its answer will
    /// carry `Connection: close`.
    func closeIfIdle() {
        if phase == .idle && start == end { close() }
    }
}
