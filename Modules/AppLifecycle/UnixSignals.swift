import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signals a process receives, as an async sequence.
///
/// Creating it makes sure the watched signals no longer end the process (their default action
/// becomes ignore, `SIG_IGN`) and installs a Dispatch signal source for each; it returns once
/// the sources are registered, and every arrival from then on is an element. The signals stay
/// harmless after the sequence is gone, so a late one cannot kill a process that meant to
/// handle it. Create it before starting anything a signal should not interrupt: a signal that
/// arrives earlier still acts as before, and one that arrives before the iteration starts waits
/// for it.
///
/// Iterate it once: each arrival is delivered once, so iterators made from copies of one
/// sequence share the arrivals between them.
///
/// ```swift
/// for await signal in await UnixSignals([.terminate, .interrupt, .hangup]) {
///     if signal == .hangup { continue }
///     break
/// }
/// ```
public struct UnixSignals: AsyncSequence, Sendable {
    /// The element: one signal's arrival.
    public typealias Element = UnixSignal

    private let sources: SignalSources

    /// Starts watching `signals`; returns once every signal is watched, so one that arrives after
    /// this is delivered.
    /// - Parameter signals: The signals to deliver; each is ignored from now on.
    public init(_ signals: [UnixSignal]) async {
        sources = SignalSources(signals)
        await sources.registration()
    }

    /// Makes the iterator that delivers the arrivals, starting with those not yet delivered.
    public func makeAsyncIterator() -> Iterator {
        Iterator(sources: sources, base: sources.arrivals.makeAsyncIterator())
    }

    /// Delivers the signals in the order they arrive; never ends while the sequence watches.
    public struct Iterator: AsyncIteratorProtocol {
        /// Keeps the Dispatch sources installed while the iterator is in use.
        private let sources: SignalSources
        private var base: AsyncStream<UnixSignal>.Iterator

        fileprivate init(sources: SignalSources, base: AsyncStream<UnixSignal>.Iterator) {
            self.sources = sources
            self.base = base
        }

        /// The next signal to arrive.
        public mutating func next() async -> UnixSignal? {
            await base.next()
        }
    }
}

/// The Dispatch signal sources of one ``UnixSignals`` and the stream they feed.
///
/// `@unchecked Sendable`: the sources are set up in `init` and cancelled in `deinit` only; the
/// stream and its continuation are safe to share.
private final class SignalSources: @unchecked Sendable {
    let arrivals: AsyncStream<UnixSignal>
    private let continuation: AsyncStream<UnixSignal>.Continuation
    private let sources: [any DispatchSourceSignal]
    private let queue: DispatchQueue
    private let registered = DispatchGroup()

    init(_ signals: [UnixSignal]) {
        let (arrivals, continuation) = AsyncStream<UnixSignal>.makeStream()
        self.arrivals = arrivals
        self.continuation = continuation
        let queue = DispatchQueue(label: "swifty.unix-signals")
        let registered = self.registered
        self.queue = queue
        sources = signals.map { watched in
            Self.ignoreUnlessHandled(watched)
            let source = DispatchSource.makeSignalSource(signal: watched.rawValue, queue: queue)
            source.setEventHandler { continuation.yield(watched) }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            return source
        }
    }

    /// Returns once every source is registered: registration happens on Dispatch's own thread,
    /// and until it is done an arrival would be ignored rather than delivered. Awaited, never
    /// waited for, so no thread of the caller's pool is held meanwhile.
    func registration() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            registered.notify(queue: queue) { continuation.resume() }
        }
    }

    /// Sets the signal's action to ignore while it is the default (ending the process), so it
    /// cannot end the process before Dispatch takes it. An action already set is kept: on Linux,
    /// Dispatch installs its own handler once per signal and relies on it for every later source.
    private static func ignoreUnlessHandled(_ watched: UnixSignal) {
        #if canImport(Glibc)
            var current = sigaction()
            guard sigaction(watched.rawValue, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil
            else { return }
        #endif
        signal(watched.rawValue, SIG_IGN)
    }

    deinit {
        for source in sources { source.cancel() }
        continuation.finish()
    }
}
