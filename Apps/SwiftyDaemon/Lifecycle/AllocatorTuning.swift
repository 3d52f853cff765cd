#if canImport(Glibc)
    import Glibc
#endif

/// The C allocator that serves the daemon's process, and its settings.
///
/// `swiftyd` links tcmalloc (gperftools' minimal build), which then serves `malloc` and `free`
/// for the whole process: the Swift runtime, Foundation, libcurl, http-parser and OpenSSL. A
/// proxied request makes about 90 small allocations, and tcmalloc's per-thread caches serve them
/// with less work than glibc's bins. A process that embeds `SwiftyDaemon`
/// without linking tcmalloc keeps glibc's allocator; ``apply()`` then tunes that one.
public enum AllocatorTuning {
    /// The allocator serving `malloc` in this process: `tcmalloc <version>` when tcmalloc is
    /// linked in or preloaded, `glibc` otherwise. The daemon logs it in its `ready` line.
    public static var activeAllocator: String {
        #if canImport(Glibc)
            guard let (major, minor) = tcmallocVersion else { return "glibc" }
            return "tcmalloc \(major).\(minor)"
        #else
            return "system"
        #endif
    }

    /// tcmalloc's major and minor version when it is in the process, found by its `tc_version`
    /// symbol; `nil` when glibc serves `malloc`.
    private static var tcmallocVersion: (major: Int32, minor: Int32)? {
        #if canImport(Glibc)
            // `const char *tc_version(int *major, int *minor, const char **patch)`.
            typealias Number = UnsafeMutablePointer<Int32>
            typealias Version = @convention(c) (Number?, Number?, OpaquePointer?) -> UnsafePointer<CChar>?
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "tc_version") else { return nil }
            var major: Int32 = 0
            var minor: Int32 = 0
            _ = unsafeBitCast(symbol, to: Version.self)(&major, &minor, nil)
            return (major, minor)
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
    /// Returns whether glibc took the setting: false when another allocator (tcmalloc) serves
    /// the process, which leaves it untouched, or off glibc.
    @discardableResult
    public static func apply() -> Bool {
        #if canImport(Glibc)
            guard tcmallocVersion == nil else { return false }
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
