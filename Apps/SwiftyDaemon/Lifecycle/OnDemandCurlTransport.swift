import CurlTransport
import EventLoops
import HTTPTypes
import ServiceCore
import Synchronization

/// The daemon's libcurl transport, made by the first request that needs it.
///
/// With every upstream on cleartext `http`, the HTTP/1.1 transport takes the calls, and libcurl
/// serves only what it hands over (`https`, a call made off the loops). Made on demand, such a
/// daemon never loads libcurl and the thirty libraries it brings, which would otherwise be about
/// a third of its start. The first request that needs it waits while libcurl loads (a few
/// milliseconds, once). A module bound to the `curl` transport has it made at start.
final class OnDemandCurlTransport: Transport {
    private enum State {
        case idle
        case made(CurlTransport)
        case shutDown
    }

    private let state: Mutex<State>
    private let eventLoops: EventLoopGroup

    /// - Parameters:
    ///   - eventLoops: The loops the transport runs requests on when they are sent from one.
    ///   - makeNow: Whether to make the transport now rather than on the first request.
    init(eventLoops: EventLoopGroup, makeNow: Bool) {
        self.eventLoops = eventLoops
        state = Mutex(makeNow ? .made(Self.make(eventLoops)) : .idle)
    }

    /// Whether the libcurl transport has been made (for tests).
    var isMade: Bool {
        state.withLock { if case .made = $0 { true } else { false } }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let transport = try state.withLock { (state) throws(TransportError) -> CurlTransport in
            switch state {
            case .made(let transport):
                return transport
            case .idle:
                let transport = Self.make(eventLoops)
                state = .made(transport)
                return transport
            case .shutDown:
                let method = request.method.rawValue
                throw TransportError(.shutDown, "the libcurl transport was shut down before a \(method)")
            }
        }
        return try await transport.send(request)
    }

    /// Shuts the transport down if it was made; later requests fail with `shutDown`.
    func shutdown(gracePeriod: Duration = .zero) async {
        let made = state.withLock { state -> CurlTransport? in
            defer { state = .shutDown }
            if case .made(let transport) = state { return transport }
            return nil
        }
        await made?.shutdown(gracePeriod: gracePeriod)
    }

    private static func make(_ eventLoops: EventLoopGroup) -> CurlTransport {
        CurlTransport(configuration: .sized(forConcurrency: 256), eventLoops: eventLoops)
    }
}
