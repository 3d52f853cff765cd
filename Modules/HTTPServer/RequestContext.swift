import CMicroHTTPD
import EventLoops
import Foundation
import HTTPTypes
import Synchronization

/// The server's state for one request, from the request line to the completed callback.
///
/// libmicrohttpd calls back for one connection on one thread at a time, so the fields below are
/// touched only by that thread, with one exception: ``response``, ``closeAfterResponse`` and
/// ``parked`` are handed over under ``ServerCore``'s lock. Whichever party takes the context out
/// of the core's pending table (the handler's task, the timeout sweep or the shutdown sweep)
/// writes the answer, and resumes the connection if it was parked (suspended); the connection's
/// thread reads the answer under the lock or after the resume. That hand-over is why the class is
/// `@unchecked Sendable`.
final class RequestContext: @unchecked Sendable {
    /// Where the request is in its life.
    enum Stage {
        /// The head has been parsed; the first access-handler call has not happened yet.
        case head
        /// The head was accepted; body bytes may arrive.
        case body
        /// The handler runs; the connection is suspended until it answers.
        case waiting
        /// The answer was queued.
        case answered
        /// A rejection was queued; the connection closes after it.
        case rejected
        /// The chunked body passed the limit: further bytes are discarded and 413 is queued once
        /// the body ends (libmicrohttpd 0.9.75 accepts no answer while a body is being read).
        case discarding
    }

    /// The raw request-target as received.
    let target: String
    /// Whether the target holds only visible ASCII characters.
    let targetIsValid: Bool

    var stage = Stage.head
    var headers = ServerHeaders()
    var headerBytes = 0
    /// Set while collecting headers when a value holds NUL, CR or LF.
    var headerHasControlCharacter = false
    var hostCount = 0
    var contentLengthCount = 0
    var contentLength: String?
    var transferEncoding: String?
    /// End of the previous element of the head in libmicrohttpd's read buffer, for the
    /// contiguity check of ``MHDCallbacks/collectHeader`` (see ``HeadIntegrity``).
    var headCursor: UnsafePointer<CChar>?
    /// Set when the head holds bytes libmicrohttpd did not hand over (hidden behind a NUL) or a
    /// folded line.
    var headIsBroken = false
    /// Set when a header field name holds a character outside RFC 9110's `token`.
    var headerNameIsInvalid = false
    var body = Data()
    var discardedBytes = 0
    var dispatched = false
    /// When the handler's time is up (set before the context is shared, read under the core's lock).
    var deadline: ContinuousClock.Instant?
    var connection: OpaquePointer?
    /// The network thread that owns the connection; resumes go through it.
    var loop: EventLoop?
    var response: ServerResponse?
    /// Whether the connection was suspended to wait for the handler (under the core's lock).
    var parked = false
    var closeAfterResponse = false

    #if DEBUG
        /// Counts this server's live contexts (debug builds only): tests check it returns to zero.
        private let liveCounter: LiveCounter?

        init(target: String, targetIsValid: Bool, liveCounter: LiveCounter? = nil) {
            self.target = target
            self.targetIsValid = targetIsValid
            self.liveCounter = liveCounter
            liveCounter?.count.add(1, ordering: .relaxed)
        }

        deinit { liveCounter?.count.subtract(1, ordering: .relaxed) }
    #else
        init(target: String, targetIsValid: Bool, liveCounter: LiveCounter? = nil) {
            self.target = target
            self.targetIsValid = targetIsValid
        }
    #endif

    /// Builds a context from the raw, NUL-terminated request-target libmicrohttpd hands over.
    convenience init(rawTarget: UnsafePointer<CChar>, liveCounter: LiveCounter? = nil) {
        let length = strlen(rawTarget)
        let bytes = UnsafeRawBufferPointer(start: rawTarget, count: length)
        var valid = length > 0
        for byte in bytes where byte <= 0x20 || byte >= 0x7F {
            valid = false
            break
        }
        self.init(target: String(decoding: bytes, as: UTF8.self), targetIsValid: valid, liveCounter: liveCounter)
    }
}

/// A count of live ``RequestContext``s for one server; only debug builds update it.
final class LiveCounter: Sendable {
    let count = Atomic<Int>(0)
}
