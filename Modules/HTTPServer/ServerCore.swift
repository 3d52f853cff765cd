import AppLogging
import CMicroHTTPD
import EventLoops
import Foundation
import Synchronization

/// The part of the server that libmicrohttpd's callbacks reach through their `cls` pointer.
///
/// ``HTTPServer`` keeps it alive for as long as the daemon runs; handler tasks keep their own
/// reference, so a late answer after shutdown finds the core (and its `stopped` flag) intact.
final class ServerCore: Sendable {
    /// What the lock guards: the requests whose handler has not answered yet (``RequestContext``
    /// tells whether each one's connection is parked) and whether the shutdown sweep has run.
    struct State {
        var pending: [ObjectIdentifier: RequestContext] = [:]
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
    /// Live request contexts (updated in debug builds only, for leak tests).
    let liveContexts = LiveCounter()

    init(
        configuration: HTTPServer.Configuration,
        logger: Logger,
        handler: @escaping @Sendable (ServerRequest) async -> ServerResponse
    ) {
        self.configuration = configuration
        self.logger = logger
        self.handler = handler
    }

    /// Runs the handler for a request and hands the answer to its connection.
    func run(_ request: ServerRequest, context: RequestContext) async {
        let response = await handler(request)
        state.withLock { state in
            // Whoever takes the context out answers it, exactly once; after a sweep the connection
            // may be gone, so a late answer is dropped here.
            guard state.pending.removeValue(forKey: ObjectIdentifier(context)) != nil else { return }
            context.response = response
            context.closeAfterResponse = draining.load(ordering: .relaxed)
            if context.parked, let connection = context.connection { Self.resume(connection, of: context) }
        }
    }

    /// Resumes `connection`; from another thread than its loop, wakes the loop to process it.
    /// Called under the lock, so it never races the shutdown sweep.
    private static func resume(_ connection: OpaquePointer, of context: RequestContext) {
        MHD_resume_connection(connection)
        if let loop = context.loop, !loop.isCurrent { loop.wake() }
    }

    /// Answers with 504 every suspended request whose handler is past its deadline; returns how many.
    func expireOverdue(now: ContinuousClock.Instant = .now) -> Int {
        let expired = state.withLock { state -> Int in
            var expired = 0
            for (key, context) in state.pending {
                // A context not parked yet is being served inline on its loop right now.
                guard context.parked, let deadline = context.deadline, deadline <= now,
                    let connection = context.connection
                else { continue }
                state.pending.removeValue(forKey: key)
                context.response = .problem(504, detail: "The request handler did not answer in time.")
                context.closeAfterResponse = draining.load(ordering: .relaxed)
                Self.resume(connection, of: context)
                expired += 1
            }
            return expired
        }
        if expired > 0 {
            logger.warning("answered requests whose handler ran past its timeout", metadata: ["count": "\(expired)"])
        }
        return expired
    }

    /// Answers every request whose handler has not answered with 503 (resuming parked
    /// connections); no request is parked after this. Returns how many were answered so.
    func abandonSuspended() -> Int {
        let abandoned = state.withLock { state -> Int in
            state.stopped = true
            let contexts = Array(state.pending.values)
            state.pending.removeAll()
            for context in contexts {
                context.response = .problem(503, detail: "The server shut down before the handler answered.")
                context.closeAfterResponse = true
                if context.parked, let connection = context.connection { Self.resume(connection, of: context) }
            }
            return contexts.count
        }
        if abandoned > 0 {
            logger.warning("shutdown answered unfinished requests with 503", metadata: ["count": "\(abandoned)"])
        }
        return abandoned
    }
}
