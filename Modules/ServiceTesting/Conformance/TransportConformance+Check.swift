extension TransportConformance {
    /// One behaviour every ``ServiceCore/Transport`` must have.
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        /// `GET`, `POST`, `PUT`, `PATCH`, `DELETE`, `OPTIONS` and a custom method reach the server as sent.
        case methods
        /// Percent-encoded paths and queries reach the server byte for byte.
        case pathAndQuery
        /// Request header fields reach the server with their values exactly.
        case requestHeaders
        /// A text body and its `Content-Type` arrive exactly, and come back exactly.
        case textBody
        /// A binary body (every byte value, NULs, random bytes) arrives and comes back exactly.
        case binaryBody
        /// An 8 MiB body goes up and the same 8 MiB comes back.
        case largeBodies
        /// A response header sent twice under one name keeps both values.
        case repeatedResponseHeaders
        /// Status codes 2xx to 5xx are returned as responses, not errors; redirects are not followed.
        case statusCodes
        /// Interim `100` and `103` answers before the final one are skipped, one with a
        /// `Content-Length` included (an interim answer has no body; raw socket server).
        case interimResponses
        /// Empty request and response bodies, 204 included.
        case emptyBodies
        /// `HEAD` returns the headers and no body.
        case head
        /// A server slower than `request.timeout` fails the request with `timedOut`.
        case timeout
        /// Cancelling the calling task fails the request with `cancelled`, promptly.
        case cancellation
        /// A server that closes the connection mid-answer (or before answering) fails the request
        /// with `connectionClosed` (raw socket server).
        case connectionClosedMidAnswer
        /// A closed port fails the request with `connectionFailed`.
        case connectionRefused
        /// 200 requests from 200 tasks at once each get their own answer.
        case concurrentRequests

        /// The check's name.
        public var description: String { rawValue }

        /// Whether the check needs real sockets (a scripted misbehaving peer, a closed port); an
        /// in-process transport such as ``MockTransport`` cannot pass these.
        public var requiresNetwork: Bool {
            switch self {
            case .interimResponses, .connectionClosedMidAnswer, .connectionRefused: true
            default: false
            }
        }

        /// The checks an in-process transport (no sockets) is expected to pass.
        public static var inProcessCases: [Check] { allCases.filter { !$0.requiresNetwork } }
    }
}
