#if canImport(Glibc)
    import Glibc
#endif

/// Process-wide settings of the C allocator, applied once when the daemon's process starts.
public enum AllocatorTuning {
    /// Turns off glibc's fastbins (`mallopt(M_MXFAST, 0)`); its per-thread cache still serves
    /// small blocks.
    ///
    /// Every proxied request frees many small blocks (libcurl's, the async task's) and then asks
    /// for blocks of about 1 KiB (the slabs of the async task allocator), and each such request first
    /// merges every fastbin chunk (`malloc_consolidate`). Without fastbins that work is gone:
    /// `swiftyd` measured about 2 µs (3 %) less CPU per proxied request (docs/benchmarks.md).
    ///
    /// Call it first thing in `main`, while the process has one thread: glibc reads the setting
    /// without a lock, so changing it while other threads allocate can leave their frees and
    /// allocations disagreeing about which blocks are fastbin blocks.
    /// Returns whether the allocator took the setting (false off glibc).
    @discardableResult
    public static func apply() -> Bool {
        #if canImport(Glibc)
            // `mallopt` and `M_MXFAST` (1) are in <malloc.h>, which the Glibc module leaves out.
            typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
            let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
            let maximumFastbinSize: Int32 = 1
            return mallopt(maximumFastbinSize, 0) == 1
        #else
            return false
        #endif
    }
}
