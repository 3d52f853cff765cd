import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Names threads so that `top -H`, `perf`, debuggers and tests can tell them apart.
public enum ThreadNaming {
    /// Names the calling thread. Foundation's `Thread.name` reaches the OS only when the new
    /// thread happens to run after its creator has finished `start()`, so the name is also
    /// written to `/proc/thread-self/comm` (Linux; at most 15 bytes are kept).
    public static func nameCurrentThread(_ name: String) {
        Thread.current.name = name
        #if os(Linux)
            let descriptor = open("/proc/thread-self/comm", O_WRONLY)
            guard descriptor >= 0 else { return }
            _ = name.withCString { write(descriptor, $0, min(15, strlen($0))) }
            close(descriptor)
        #endif
    }
}
