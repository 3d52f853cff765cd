import Foundation

/// A growable byte buffer in `malloc` memory that hands its bytes to `Data` without a copy.
///
/// Used on the thread that drives the transfer only (the curl thread or an event loop): the write
/// callback appends into it, and the finished body becomes `Data(bytesNoCopy:count:deallocator: .free)`.
struct CurlResponseBuffer: ~Copyable {
    private var base: UnsafeMutableRawPointer?
    private(set) var count = 0
    private var capacity = 0

    init() {}

    deinit { free(base) }

    /// Makes room for at least `total` bytes in all. Returns `false` when memory ran out.
    mutating func reserve(_ total: Int) -> Bool {
        guard total > capacity else { return true }
        guard let grown = realloc(base, total) else { return false }
        base = grown
        capacity = total
        return true
    }

    /// Appends `length` bytes. Returns `false` when memory ran out.
    mutating func append(_ bytes: UnsafeRawPointer, length: Int) -> Bool {
        guard length > 0 else { return true }
        let needed = count + length
        if needed > capacity, !reserve(max(needed, capacity * 2, 16 * 1024)) { return false }
        (base! + count).copyMemory(from: bytes, byteCount: length)
        count = needed
        return true
    }

    /// Hands the bytes over as `Data` without copying them, and empties the buffer.
    mutating func takeData() -> Data {
        guard let bytes = base, count > 0 else { return Data() }
        var handed = bytes
        // Give back a large unused tail before handing over (realloc shrinks in place).
        if capacity - count > max(4096, count / 4), let shrunk = realloc(bytes, count) { handed = shrunk }
        let data = Data(bytesNoCopy: handed, count: count, deallocator: .free)
        base = nil
        count = 0
        capacity = 0
        return data
    }
}
