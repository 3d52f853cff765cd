import AppLogging
import EventLoops
import Synchronization

/// What every connection of a server shares: the configuration, the handler and the counters
/// that span the loops (connections open, per client address, requests in flight).
final class ServerCore: Sendable {
    let configuration: HTTPServer.Configuration
    let handler: @Sendable (ServerRequest) async -> ServerResponse
    let logger: Logger
    /// Told of every refusal of the server's own.
    let refusalObserver: (@Sendable (RefusedRequest) -> Void)?
    /// Requests handed to the handler and not answered yet.
    let inFlight = Atomic<Int>(0)
    /// Connections open right now, on every loop.
    let connections = Atomic<Int>(0)
    /// Connections open right now per client address (only kept when there is a per-address limit).
    private let perAddress = Mutex<[RemoteAddress: Int]>([:])
    /// Connections refused at accept because a connection limit was reached.
    let refusedConnections = Atomic<Int>(0)
    /// Requests the server refused itself (framing, limits, deadlines).
    let refusals = Atomic<Int>(0)
    /// Set once shutdown begins: answers then carry `Connection: close`.
    let draining = Atomic<Bool>(false)
    /// Set once shutdown has answered the unfinished requests: nothing more is handed to the handler.
    let stopped = Atomic<Bool>(false)
    /// Connection objects alive right now (for leak tests).
    let liveConnections = Atomic<Int>(0)
    /// Handler tasks running or parked right now, on every loop (for leak tests).
    let liveWorkers = Atomic<Int>(0)

    init(
        configuration: HTTPServer.Configuration,
        logger: Logger,
        refusalObserver: (@Sendable (RefusedRequest) -> Void)? = nil,
        handler: @escaping @Sendable (ServerRequest) async -> ServerResponse
    ) {
        self.configuration = configuration
        self.logger = logger
        self.refusalObserver = refusalObserver
        self.handler = handler
    }

    /// Reports a refusal to the observer, if any.
    func report(_ reason: Refusal.Reason, status: Int, method: String, duration: Duration, remote: RemoteAddress) {
        refusals.add(1, ordering: .relaxed)
        refusalObserver?(
            RefusedRequest(reason: reason.rawValue, status: status, method: method, duration: duration, remote: remote))
    }

    /// Takes a connection slot for a client at `address`; `false` (and the refusal counted and
    /// reported) when the total or the per-address limit is reached.
    func admit(_ address: RemoteAddress) -> Bool {
        let open = connections.add(1, ordering: .relaxed).newValue
        guard open <= configuration.connectionLimit else {
            connections.subtract(1, ordering: .relaxed)
            refusedConnections.add(1, ordering: .relaxed)
            report(.connectionLimit, status: 0, method: "", duration: .zero, remote: address)
            return false
        }
        let limit = configuration.perIPConnectionLimit
        guard limit > 0 else { return true }
        let admitted = perAddress.withLock { counts -> Bool in
            let count = counts[address, default: 0]
            guard count < limit else { return false }
            counts[address] = count + 1
            return true
        }
        if !admitted {
            connections.subtract(1, ordering: .relaxed)
            refusedConnections.add(1, ordering: .relaxed)
            report(.addressLimit, status: 0, method: "", duration: .zero, remote: address)
        }
        return admitted
    }

    /// Gives back the slot ``admit(_:)`` took.
    func release(_ address: RemoteAddress) {
        connections.subtract(1, ordering: .relaxed)
        guard configuration.perIPConnectionLimit > 0 else { return }
        perAddress.withLock { counts in
            if let count = counts[address], count > 1 {
                counts[address] = count - 1
            } else {
                counts[address] = nil
            }
        }
    }
}
