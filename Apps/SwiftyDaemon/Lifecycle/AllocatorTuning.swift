#if canImport(Glibc)
    import Glibc
#endif

/// The C allocator that serves the daemon's process, and its settings.
///
/// `swiftyd` links mimalloc, which then serves `malloc` and `free` for the whole process: the
/// Swift runtime, Foundation, libcurl, http-parser and OpenSSL. A proxied request makes about 90
/// small allocations, and mimalloc's per-thread heaps serve them with less work than glibc's
/// bins. It also writes no memory before handing it out, so it costs the start almost nothing
/// (each page first written is a page fault).
/// A process that embeds `SwiftyDaemon` without linking mimalloc keeps glibc's allocator;
/// ``apply()`` then tunes that one.
public enum AllocatorTuning {
    /// The allocator serving `malloc` in this process: `mimalloc <version>` when mimalloc is
    /// linked in or preloaded, `glibc` otherwise. The daemon logs it in its `ready` line.
    public static var activeAllocator: String {
        #if canImport(Glibc)
            guard let version = mimallocVersion else { return "glibc" }
            // mimalloc numbers its versions major * 100 + minor * 10 + patch (2.0.9 is 209).
            return "mimalloc \(version / 100).\(version % 100 / 10).\(version % 10)"
        #else
            return "system"
        #endif
    }

    /// mimalloc's version number when it is in the process, found by its `mi_version` symbol;
    /// `nil` when glibc serves `malloc`.
    private static var mimallocVersion: Int32? {
        #if canImport(Glibc)
            // `int mi_version(void)`.
            typealias Version = @convention(c) () -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mi_version") else { return nil }
            return unsafeBitCast(symbol, to: Version.self)()
        #else
            return nil
        #endif
    }

    /// Tunes glibc's allocator when it serves the process: turns its fastbins off
    /// (`mallopt(M_MXFAST, 0)`); its per-thread cache still serves small blocks.
    ///
    /// Every proxied request frees many small blocks (libcurl's, the async task's) and then asks
    /// for blocks of about 1 KiB (the slabs of the async task allocator), and each such request first
    /// merges every fastbin chunk (`malloc_consolidate`). Without fastbins that work is gone.
    ///
    /// Call it first thing in `main`, while the process has one thread: glibc reads the setting
    /// without a lock, so changing it while other threads allocate can leave their frees and
    /// allocations disagreeing about which blocks are fastbin blocks.
    /// Returns whether glibc took the setting: false when another allocator (mimalloc) serves
    /// the process, which leaves it untouched, or off glibc.
    @discardableResult
    public static func apply() -> Bool {
        #if canImport(Glibc)
            guard mimallocVersion == nil else { return false }
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
