import AppLogging
import CMicroHTTPD
import Foundation
import Synchronization

/// The part of the server that libmicrohttpd's callbacks reach through their `cls` pointer.
///
/// ``HTTPServer`` keeps it alive for as long as the daemon runs; handler tasks keep their own
/// reference, so a late answer after shutdown finds the core (and its `stopped` flag) intact.
final class ServerCore: Sendable {
    /// What the lock guards: the suspended requests (the only ones someone still has to resume)
    /// and whether the shutdown sweep has run.
    struct State {
        var suspended: [ObjectIdentifier: RequestContext] = [:]
        var stopped = false
    }

    let configuration: HTTPServer.Configuration
    let handler: @Sendable (ServerRequest) async -> ServerResponse
    let logger: Logger
    let state = Mutex(State())
    /// Requests handed to the handler whose connection has not completed yet.
    let inFlight = Atomic<Int>(0)
    /// Set once shutdown begins: answers then carry `Connection: close`.
    let draining = Atomic<Bool>(false)

    init(
        configuration: HTTPServer.Configuration,
        logger: Logger,
        handler: @escaping @Sendable (ServerRequest) async -> ServerResponse
    ) {
        self.configuration = configuration
        self.logger = logger
        self.handler = handler
    }

    /// Runs the handler for a suspended request and resumes its connection with the answer.
    func run(_ request: ServerRequest, context: RequestContext) async {
        let response = await handler(request)
        state.withLock { state in
            // Whoever removes the context resumes it, exactly once; after the shutdown sweep the
            // connection may be gone, so a late answer is dropped here.
            guard state.suspended.removeValue(forKey: ObjectIdentifier(context)) != nil,
                let connection = context.connection
            else { return }
            context.response = response
            context.closeAfterResponse = draining.load(ordering: .relaxed)
            MHD_resume_connection(connection)
        }
    }

    /// Answers every still-suspended request with 503 and resumes it; no request is suspended
    /// after this. Returns how many were answered so.
    func abandonSuspended() -> Int {
        state.withLock { state in
            state.stopped = true
            let contexts = Array(state.suspended.values)
            state.suspended.removeAll()
            for context in contexts {
                context.response = .problem(503, detail: "The server shut down before the handler answered.")
                context.closeAfterResponse = true
                if let connection = context.connection { MHD_resume_connection(connection) }
            }
            return contexts.count
        }
    }
}
