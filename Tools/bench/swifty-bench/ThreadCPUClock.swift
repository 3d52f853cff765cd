#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CPU time of the calling thread, in nanoseconds: unlike wall time it does not count the time
/// the thread waits for a core, so other processes on the machine disturb it less.
struct ThreadCPUClock {
    /// The thread's CPU time so far.
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }

    /// The CPU time `body` takes.
    func measure(_ body: () -> Void) -> Double {
        let start = now()
        body()
        return now() - start
    }
}
