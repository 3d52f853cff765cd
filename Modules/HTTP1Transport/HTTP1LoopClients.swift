import ServiceCore
import Synchronization

/// A transport's ``HTTP1LoopClient``s, one per event loop that has sent through it.
final class HTTP1LoopClients: Sendable {
    private struct State {
        var clients: [ObjectIdentifier: HTTP1LoopClient] = [:]
        var closed = false
    }

    private let state = Mutex(State())
    private let configuration: HTTP1Transport.Configuration

    init(configuration: HTTP1Transport.Configuration) {
        self.configuration = configuration
    }

    /// The client of `loop`, created on first use; call it on `loop`'s thread. `nil` after
    /// ``shutdown(gracePeriod:)``.
    func client(for loop: any IOEventLoop) -> HTTP1LoopClient? {
        let key = ObjectIdentifier(loop)
        let (existing, closed) = state.withLock { ($0.clients[key], $0.closed) }
        if let existing { return existing }
        guard !closed else { return nil }
        // Created on the loop's thread, outside the lock (only this thread creates this key).
        let client = HTTP1LoopClient(loop: loop, configuration: configuration) { [weak self] in
            _ = self?.state.withLock { $0.clients.removeValue(forKey: key) }
        }
        let added = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.clients[key] = client
            return true
        }
        if !added { client.close() }
        return added ? client : nil
    }

    /// How many loop clients are open.
    var count: Int { state.withLock { $0.clients.count } }

    /// Whether ``shutdown(gracePeriod:)`` has begun.
    var isShutDown: Bool { state.withLock { $0.closed } }

    /// Stops every client: requests in flight may finish until the grace period ends; returns
    /// once each has closed (or its loop has stopped, which closes it too).
    func shutdown(gracePeriod: Duration) async {
        let clients = closeAll()
        let deadline = ContinuousClock.now + gracePeriod
        for client in clients {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Resumed exactly once: by the client on its loop, or here when the loop has stopped.
                let scheduled = client.loop.execute { client.shutdown(deadline: deadline, waiter: continuation) }
                if !scheduled { continuation.resume() }
            }
        }
    }

    /// Starts stopping every client without waiting (from the transport's `deinit`).
    func shutdownWithoutWaiting() {
        for client in closeAll() {
            client.loop.execute { client.shutdown(deadline: .now, waiter: nil) }
        }
    }

    private func closeAll() -> [HTTP1LoopClient] {
        state.withLock { state in
            state.closed = true
            return Array(state.clients.values)
        }
    }
}
