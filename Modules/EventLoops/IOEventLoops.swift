#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which ``IOEventLoop`` the calling thread runs, if any.
public enum IOEventLoops {
    /// The loop whose thread this is, or `nil` on any other thread.
    ///
    /// A loop sets it on its own thread while it runs (``setCurrent(_:)``); a transport reads it
    /// to find the loop of the request handler that calls it.
    public static var current: (any IOEventLoop)? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<LoopBox>.fromOpaque(pointer).takeUnretainedValue().loop
    }

    /// Declares `loop` as the calling thread's loop, or clears it with `nil`; for the loop itself,
    /// on its own thread, when it starts and when it ends.
    public static func setCurrent(_ loop: (any IOEventLoop)?) {
        if let old = pthread_getspecific(key) {
            Unmanaged<LoopBox>.fromOpaque(old).release()
        }
        let box = loop.map { Unmanaged.passRetained(LoopBox($0)).toOpaque() }
        pthread_setspecific(key, box)
    }

    /// The thread-specific key; its value is a retained ``LoopBox`` or `NULL`.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key is left for IOEventLoops")
        return key
    }()

    /// Holds the existential so one pointer can carry it.
    private final class LoopBox {
        let loop: any IOEventLoop
        init(_ loop: any IOEventLoop) { self.loop = loop }
    }
}
