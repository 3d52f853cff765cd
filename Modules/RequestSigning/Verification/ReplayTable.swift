/// The storage of ``InMemoryReplayGuard``: an open-addressing hash table over an append-only
/// log of fixed-size entries (no allocation per nonce), exact in what it answers.
///
/// Each entry holds the whole `(key id, nonce)` pair packed into 48 bytes, and lookups compare
/// all of it, so two nonces whose hashes collide are still told apart: a collision costs a probe,
/// never a wrong answer. Longer pairs (beyond 47 bytes) go to a dictionary of strings.
///
/// The index is two small arrays per slot, a 2-byte tag (16 bits of the hash, never 0 in a used
/// slot) and the entry's 4-byte position in the log; probes read tags only and an entry only
/// when its tag matches. New entries are appended to the log, so inserting writes sequential
/// memory rather than a random line of a large table. Expired entries stay until a sweep, which
/// copies the live entries to a fresh log and rebuilds the index; sweeps run when the log reaches
/// three quarters of the slots (and the table doubles, up to twice the capacity rounded to a
/// power of two, when more than half of the slots are live), so every sweep is paid for by at
/// least a quarter of a table of inserts; or, at most once per instant, when the table holds
/// ``capacity`` entries.
struct ReplayTable: ~Copyable {
    /// A key id and nonce packed as `[length, key id bytes, 0, nonce bytes, zero padding]`; the
    /// length byte keeps pairs that differ only in where the key id ends apart, and a key id
    /// never holds a NUL byte (such a pair is not packed), so the separator marks its end.
    struct Key: Hashable, Sendable {
        var w0: UInt64
        var w1: UInt64
        var w2: UInt64
        var w3: UInt64
        var w4: UInt64
        var w5: UInt64

        /// The most bytes of key id, separator and nonce a packed key holds.
        static let maximumLength = 47

        static let empty = Key(w0: 0, w1: 0, w2: 0, w3: 0, w4: 0, w5: 0)

        /// Packs the pair, or returns `nil` when it is longer than ``maximumLength`` or the key
        /// id holds a NUL byte.
        init?(keyID: UnsafeBufferPointer<UInt8>, nonce: UnsafeBufferPointer<UInt8>) {
            let length = keyID.count + 1 + nonce.count
            guard length <= Self.maximumLength, !keyID.contains(0) else { return nil }
            var key = Key.empty
            withUnsafeMutableBytes(of: &key) { buffer in
                let base = buffer.baseAddress!
                buffer[0] = UInt8(length)
                // The byte after the key id stays 0: the separator.
                if let source = keyID.baseAddress, !keyID.isEmpty {
                    (base + 1).copyMemory(from: source, byteCount: keyID.count)
                }
                if let source = nonce.baseAddress, !nonce.isEmpty {
                    (base + 2 + keyID.count).copyMemory(from: source, byteCount: nonce.count)
                }
            }
            self = key
        }

        /// Calls `body` with the packed key id and nonce.
        func withParts<R, E: Error>(
            _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws(E) -> R
        ) throws(E) -> R {
            var copy = self
            let result = withUnsafeBytes(of: &copy) { buffer in
                let bytes = buffer.assumingMemoryBound(to: UInt8.self)
                let end = 1 + Int(bytes[0])
                var separator = 1
                while bytes[separator] != 0 { separator += 1 }
                return Result { () throws(E) -> R in
                    try body(
                        UnsafeBufferPointer(rebasing: bytes[1..<separator]),
                        UnsafeBufferPointer(rebasing: bytes[(separator + 1)..<end]))
                }
            }
            return try result.get()
        }

        init(w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64, w4: UInt64, w5: UInt64) {
            (self.w0, self.w1, self.w2, self.w3, self.w4, self.w5) = (w0, w1, w2, w3, w4, w5)
        }
    }

    /// A pair too long to pack.
    struct LongKey: Hashable {
        var keyID: String
        var nonce: String
    }

    struct Entry {
        var key: Key
        /// When the nonce may be forgotten, in seconds since 1970.
        var expiry: Double
    }

    /// The most entries held at once.
    let capacity: Int
    /// The largest table (a power of two of at least twice the capacity).
    let maximumSlots: Int
    /// The hash seed, random per table.
    private let seed: UInt64
    /// The hash bits kept in tags (all 16 but in tests, which force tag collisions with fewer).
    private let tagMask: UInt16
    /// Each slot's tag, 0 when empty.
    private var tags: UnsafeMutableBufferPointer<UInt16>
    /// Each used slot's position in the log.
    private var positions: UnsafeMutableBufferPointer<UInt32>
    /// The entries in insertion order; the first ``used`` are meaningful.
    private var log: UnsafeMutableBufferPointer<Entry>
    /// A log of the same size, the target of sweeps.
    private var spareLog: UnsafeMutableBufferPointer<Entry>
    /// Entries in the log, live or expired.
    private(set) var used = 0
    private var long: [LongKey: Double] = [:]
    /// The instant of the last sweep triggered by capacity.
    private var lastSweep = -Double.infinity
    /// The latest `now` seen, for ``liveCount``.
    private var latestNow = -Double.infinity

    /// Creates a table for at most `capacity` entries, starting small and doubling as needed.
    /// - Parameters:
    ///   - capacity: The most entries held at once (at most 2^30).
    ///   - initialSlots: The starting number of slots (rounded up to a power of two).
    ///   - tagMask: The hash bits kept in tags; tests pass fewer to make tags collide.
    init(capacity: Int, initialSlots: Int = 1_024, tagMask: UInt16 = 0xFFFF) {
        self.capacity = min(max(1, capacity), 1 << 30)
        self.tagMask = tagMask
        var maximum = 8
        while maximum < self.capacity * 2 { maximum *= 2 }
        maximumSlots = maximum
        var size = 8
        while size < min(initialSlots, maximum) { size *= 2 }
        tags = Self.allocateTags(size)
        positions = .allocate(capacity: size)
        log = .allocate(capacity: Self.loadLimit(size))
        spareLog = .allocate(capacity: Self.loadLimit(size))
        seed = UInt64.random(in: UInt64.min...UInt64.max) | 1
    }

    deinit {
        tags.deallocate()
        positions.deallocate()
        log.deallocate()
        spareLog.deallocate()
    }

    /// The number of slots, for tests.
    var slotCount: Int { tags.count }

    /// The entries not expired at the latest instant seen.
    var liveCount: Int {
        var count = 0
        for index in 0..<used where log[index].expiry > latestNow { count += 1 }
        for expiry in long.values where expiry > latestNow { count += 1 }
        return count
    }

    /// Records the key unless it is held and unexpired.
    mutating func record(_ key: Key, expiresAt: Double, now: Double) -> ReplayCheckResult {
        if now > latestNow { latestNow = now }
        let hash = hash(key)
        let tag = tag(hash)
        var mask = tags.count - 1
        var index = hash & mask
        while true {
            let found = tags[index]
            if found == 0 { break }
            if found == tag {
                let position = Int(positions[index])
                if log[position].key == key {
                    if log[position].expiry > now { return .replayed }
                    // The same nonce after its expiry: its old signature can no longer be accepted.
                    log[position].expiry = expiresAt
                    return .fresh
                }
            }
            index = (index &+ 1) & mask
        }
        if used >= log.count || used + long.count >= capacity {
            guard makeRoom(now: now) else { return .capacityExceeded }
            mask = tags.count - 1
            index = hash & mask
            while tags[index] != 0 { index = (index &+ 1) & mask }
        }
        log[used] = Entry(key: key, expiry: expiresAt)
        tags[index] = tag
        positions[index] = UInt32(truncatingIfNeeded: used)
        used += 1
        return .fresh
    }

    /// Records a pair too long to pack.
    mutating func record(_ key: LongKey, expiresAt: Double, now: Double) -> ReplayCheckResult {
        if now > latestNow { latestNow = now }
        if let held = long[key] {
            if held > now { return .replayed }
            long[key] = expiresAt
            return .fresh
        }
        if used + long.count >= capacity {
            guard makeRoom(now: now) else { return .capacityExceeded }
        }
        long[key] = expiresAt
        return .fresh
    }

    /// The bytes a table for `capacity` takes at its largest: the index and two logs.
    static func maximumMemory(forCapacity capacity: Int) -> Int {
        var slots = 8
        while slots < capacity * 2 { slots *= 2 }
        let index = slots * (MemoryLayout<UInt16>.stride + MemoryLayout<UInt32>.stride)
        return index + 2 * loadLimit(slots) * MemoryLayout<Entry>.stride
    }

    /// The log entries at which a table of `size` slots is swept: three quarters of its slots.
    private static func loadLimit(_ size: Int) -> Int { size / 4 * 3 }

    /// Sweeps (and grows) the table so that one more entry fits; returns `false` when it is full
    /// of live entries.
    private mutating func makeRoom(now: Double) -> Bool {
        if used < log.count {
            // Full by capacity: sweeping again at the same instant would find nothing new.
            guard now > lastSweep else { return false }
            lastSweep = now
        }
        var live = 0
        for index in 0..<used where log[index].expiry > now { live += 1 }
        var size = tags.count
        while live * 2 > size && size < maximumSlots { size *= 2 }
        rebuild(size: size, now: now)
        if !long.isEmpty { long = long.filter { $0.value > now } }
        return used + long.count < capacity && used < log.count
    }

    /// Copies the live entries to a fresh log (of a table of `size` slots) and rebuilds the index.
    private mutating func rebuild(size: Int, now: Double) {
        if size != tags.count {
            tags.deallocate()
            positions.deallocate()
            spareLog.deallocate()
            tags = Self.allocateTags(size)
            positions = .allocate(capacity: size)
            spareLog = .allocate(capacity: Self.loadLimit(size))
        } else {
            tags.update(repeating: 0)
        }
        let mask = size - 1
        var live = 0
        for source in 0..<used where log[source].expiry > now {
            let entry = log[source]
            let hash = hash(entry.key)
            var index = hash & mask
            while tags[index] != 0 { index = (index &+ 1) & mask }
            tags[index] = tag(hash)
            positions[index] = UInt32(truncatingIfNeeded: live)
            spareLog[live] = entry
            live += 1
        }
        swap(&log, &spareLog)
        if log.count != spareLog.count {
            spareLog.deallocate()
            spareLog = .allocate(capacity: log.count)
        }
        used = live
    }

    /// Tags, all 0 (empty). Positions and log entries are left uninitialised: they are trivial
    /// types, written before a tag or ``used`` makes them readable.
    private static func allocateTags(_ size: Int) -> UnsafeMutableBufferPointer<UInt16> {
        let buffer = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: size)
        buffer.initialize(repeating: 0)
        return buffer
    }

    /// The slot tag of a hash: its top 16 bits (masked), never 0.
    @inline(__always)
    private func tag(_ hash: Int) -> UInt16 {
        (UInt16(truncatingIfNeeded: UInt64(bitPattern: Int64(hash)) >> 48) & tagMask) | 1
    }

    /// A seeded multiply-xorshift hash of the six words (not for secrecy: entries are compared
    /// in full; the seed only keeps probe sequences from being predictable).
    @inline(__always)
    private func hash(_ key: Key) -> Int {
        var hash = seed
        hash = Self.mix(hash, key.w0)
        hash = Self.mix(hash, key.w1)
        hash = Self.mix(hash, key.w2)
        hash = Self.mix(hash, key.w3)
        hash = Self.mix(hash, key.w4)
        hash = Self.mix(hash, key.w5)
        hash = (hash ^ (hash >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }

    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        return mixed ^ (mixed >> 31)
    }
}
