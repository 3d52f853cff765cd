import ServiceCore
import Synchronization

/// A transport's ``CurlLoopDriver``s, one per event loop that has sent through it.
final class CurlLoopDrivers: Sendable {
    private struct State {
        var drivers: [ObjectIdentifier: CurlLoopDriver] = [:]
        var closed = false
    }

    private let state = Mutex(State())
    private let configuration: CurlTransport.Configuration

    init(configuration: CurlTransport.Configuration) {
        self.configuration = configuration
    }

    /// The driver of `loop`, created on first use; call it on `loop`'s thread. `nil` after
    /// ``shutdown(gracePeriod:)`` or when libcurl cannot create a multi handle.
    func driver(for loop: any IOEventLoop) -> CurlLoopDriver? {
        let key = ObjectIdentifier(loop)
        let (existing, closed) = state.withLock { ($0.drivers[key], $0.closed) }
        if let existing { return existing }
        guard !closed else { return nil }
        // Created on the loop's thread, outside the lock (only this thread creates this key).
        guard
            let driver = CurlLoopDriver(
                loop: loop, configuration: configuration,
                onClose: { [weak self] in
                    self?.forget(key)
                })
        else { return nil }
        let added = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.drivers[key] = driver
            return true
        }
        if !added { driver.shutdown(deadline: .now, waiter: nil) }
        return added ? driver : nil
    }

    /// How many drivers are open.
    var count: Int { state.withLock { $0.drivers.count } }

    /// Whether ``shutdown(gracePeriod:)`` has begun.
    var isShutDown: Bool { state.withLock { $0.closed } }

    private func forget(_ key: ObjectIdentifier) {
        state.withLock { _ = $0.drivers.removeValue(forKey: key) }
    }

    /// Stops every driver: in-flight transfers may run until the grace period ends; returns once
    /// each has cleaned up (or its loop has stopped, which closes it too).
    func shutdown(gracePeriod: Duration) async {
        let drivers = closeAll()
        let deadline = ContinuousClock.now + gracePeriod
        for driver in drivers {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Resumed exactly once: by the driver on its loop, or here when the loop has stopped.
                let scheduled = driver.loop.execute {
                    driver.shutdown(deadline: deadline, waiter: continuation)
                }
                if !scheduled { continuation.resume() }
            }
        }
    }

    /// Starts stopping every driver without waiting (from the transport's `deinit`).
    func shutdownWithoutWaiting() {
        for driver in closeAll() {
            driver.loop.execute { driver.shutdown(deadline: .now, waiter: nil) }
        }
    }

    private func closeAll() -> [CurlLoopDriver] {
        state.withLock { state in
            state.closed = true
            return Array(state.drivers.values)
        }
    }
}
