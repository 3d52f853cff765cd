import CHTTPParser
import EventLoops
import Foundation
import HTTP1Parsing
import HTTPTypes
import ServiceCore

/// One keep-alive TCP connection of an ``HTTP1LoopClient`` and the response being read on it.
///
/// Owned by its loop client and touched only on that client's loop thread. The response is
/// parsed by http-parser, whose callbacks (``HTTP1ResponseParser``) fill the fields below.
final class HTTP1Connection {
    /// Where a connection is in its life.
    enum State {
        /// The non-blocking `connect` has not finished.
        case connecting
        /// The request is being written; `offset` bytes are out.
        case writing(offset: Int)
        /// The request is out; the response is being read.
        case reading
        /// In the pool, waiting for the next request (watched for a close by the peer).
        case idle
        /// Closed; the descriptor is gone.
        case closed
    }

    /// The socket.
    let descriptor: Int32
    /// Where it is connected.
    let origin: HTTP1Target.Origin
    var state: State = .connecting
    /// What the loop watches the socket for, if anything.
    var watched: IOInterest?
    /// The exchange it carries, while it carries one.
    var exchange: HTTP1Exchange?
    /// Whether a response was read on it before: a request that finds such a connection closed
    /// before any byte of its answer is sent once more on a fresh one.
    var hasAnswered = false
    /// The connect timer, while connecting.
    var connectTimer: IOTimerID?
    /// When it last went back to the pool.
    var idleSince = ContinuousClock.now

    // MARK: The response being read (reset by ``beginResponse()``)

    /// The parser; allocated once per connection.
    let parser = HTTP1Parser(HTTP_RESPONSE)
    /// Bytes of the current answer received so far.
    var received = 0
    /// Bytes of the current head (status line and fields) parsed so far.
    var headBytes = 0
    var status = 0
    var fields: [HTTPHeaders.Field] = []
    var name: [UInt8] = []
    var value: [UInt8] = []
    var inValue = false
    var body = Data()
    /// Set when an interim (1xx) answer's head is complete: its end starts the next answer.
    var interim = false
    /// Set when the final answer is complete.
    var complete = false
    /// Set when the body went over the limit.
    var bodyTooLarge = false
    /// Set when the head went over the limit.
    var headTooLarge = false
    /// The limits, copied from the configuration.
    let maxBodySize: Int
    let maxHeadSize: Int

    init(descriptor: Int32, origin: HTTP1Target.Origin, maxBodySize: Int, maxHeadSize: Int) {
        self.descriptor = descriptor
        self.origin = origin
        self.maxBodySize = maxBodySize
        self.maxHeadSize = maxHeadSize
    }

    /// Prepares for the answer to a new request.
    func beginResponse() {
        parser.reset(HTTP_RESPONSE)
        parser.bind(to: self)
        received = 0
        headBytes = 0
        status = 0
        fields.removeAll(keepingCapacity: true)
        name.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
        inValue = false
        body = Data()
        interim = false
        complete = false
        bodyTooLarge = false
        headTooLarge = false
    }

    /// Ends the field being read, if any.
    func flushField() {
        guard inValue || !name.isEmpty else { return }
        if fields.isEmpty { fields.reserveCapacity(HTTPHeaders.typicalFieldCount) }
        fields.append(
            HTTPHeaders.Field(
                name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
        name.removeAll(keepingCapacity: true)
        value.removeAll(keepingCapacity: true)
        inValue = false
    }

    /// The final answer, once ``complete``.
    func takeResponse() -> HTTPResponse {
        let response = HTTPResponse(status: status, headers: HTTPHeaders(fields), body: body)
        fields = []
        body = Data()
        return response
    }
}
