import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM and SIGINT as an async sequence, over Dispatch signal sources; while it lives the
/// signals' default actions are ignored, so the process drains instead of dying.
final class TerminationSignals {
    /// The signals, as they arrive.
    let signals: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    /// Starts watching SIGTERM and SIGINT.
    init() {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        signals = stream
        let queue = DispatchQueue(label: "sandbox-upstreams.signals")
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// Waits for the first signal.
    func next() async -> Int32? {
        var iterator = signals.makeAsyncIterator()
        return await iterator.next()
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
