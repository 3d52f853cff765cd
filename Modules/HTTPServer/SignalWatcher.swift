import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Delivers SIGTERM and SIGINT as an async sequence, over Dispatch signal sources.
///
/// The default actions of the watched signals are ignored while the watcher lives, so the
/// process is never killed by them: a server drains instead (the daemon, the sandbox upstreams
/// and the benchmark server all stop this way).
public final class SignalWatcher {
    /// The signals, as they arrive.
    public let signals: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    /// Starts watching `watched` (SIGTERM and SIGINT when `nil`).
    public init(_ watched: [Int32]? = nil) {
        let watched = watched ?? [SIGTERM, SIGINT]
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        signals = stream
        let queue = DispatchQueue(label: "swifty.signals")
        sources = watched.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// Waits for the next signal; `nil` once the watcher is gone.
    public func next() async -> Int32? {
        var iterator = signals.makeAsyncIterator()
        return await iterator.next()
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
