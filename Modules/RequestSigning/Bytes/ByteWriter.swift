/// Appends bytes into a caller-provided buffer (usually on the stack), moving to the heap only
/// if it fills: the signature base is built here on the hot paths, without `Array` bookkeeping
/// per append.
struct ByteWriter: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var ownsStorage = false
    /// The number of bytes written.
    private(set) var count = 0

    /// Writes into `buffer`.
    init(_ buffer: UnsafeMutableRawBufferPointer) {
        start = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        capacity = buffer.count
    }

    /// Runs `body` on a writer over a stack buffer, then appends what it wrote to `output`: how
    /// code that builds arrays reaches the writers.
    static func appending<R>(to output: inout [UInt8], _ body: (inout ByteWriter) -> R) -> R {
        withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { buffer in
            var writer = ByteWriter(buffer)
            let result = body(&writer)
            output.append(contentsOf: writer.bytes)
            return result
        }
    }

    deinit {
        if ownsStorage { start.deallocate() }
    }

    /// The bytes written so far (valid until the next append).
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    /// The bytes from `offset` to the end (valid until the next append).
    func bytes(from offset: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: start + offset, count: count - offset)
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    private mutating func grow(_ extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        storage.update(from: start, count: count)
        if ownsStorage { start.deallocate() }
        start = storage
        capacity = newCapacity
        ownsStorage = true
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { reserve(1) }
        start[count] = byte
        count += 1
    }

    /// Appends bytes.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        let destination = start + count
        if bytes.count <= 16 {
            // Short pieces (quotes, names, separators) are cheaper copied inline than via memmove.
            for index in 0..<bytes.count { destination[index] = source[index] }
        } else {
            destination.update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    /// Appends an array's bytes.
    @inline(__always)
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends a literal's bytes.
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends bytes with ASCII letters lowercased.
    mutating func appendLowercased(_ bytes: UnsafeBufferPointer<UInt8>) {
        let offset = count
        append(bytes)
        for index in offset..<count where start[index] >= 0x41 && start[index] <= 0x5A { start[index] |= 0x20 }
    }

    /// Appends an integer's decimal digits.
    mutating func append(decimal value: Int64) {
        // A sign, at most 19 digits, and room for the last 8-byte store to run past the digits.
        reserve(28)
        if value < 0 {
            start[count] = UInt8(ascii: "-")
            count += 1
        }
        let magnitude = value.magnitude
        guard magnitude >= 100_000_000 else {
            appendLeadingDigits(magnitude)
            return
        }
        // Eight digits at a time from the right: a timestamp takes two steps, not ten.
        let upper = magnitude / 100_000_000
        if upper >= 100_000_000 {
            appendLeadingDigits(upper / 100_000_000)
            appendEightDigits(upper % 100_000_000)
        } else {
            appendLeadingDigits(upper)
        }
        appendEightDigits(magnitude % 100_000_000)
    }

    /// Appends a number below 10^8 without leading zeros.
    @inline(__always)
    private mutating func appendLeadingDigits(_ value: UInt64) {
        var digits = 1
        var power: UInt64 = 10
        // Seven comparisons that do not wait on each other, rather than a loop.
        for _ in 1..<8 {
            digits &+= value >= power ? 1 : 0
            power &*= 10
        }
        // The eight digits with the leading zeros in the low bytes, which the shift drops.
        store(Self.eightDigits(value) >> UInt64(8 &* (8 &- digits)))
        count &+= digits
    }

    /// Appends a number below 10^8 as exactly eight digits.
    @inline(__always)
    private mutating func appendEightDigits(_ value: UInt64) {
        store(Self.eightDigits(value))
        count &+= 8
    }

    /// Stores eight bytes at the end (within the capacity reserved), first byte lowest.
    @inline(__always)
    private func store(_ word: UInt64) {
        UnsafeMutableRawPointer(start + count).storeBytes(of: word.littleEndian, as: UInt64.self)
    }

    /// The eight ASCII digits of a number below 10^8, the first in the lowest byte: the number
    /// is split into halves of four digits, each half into pairs, each pair into digits, all
    /// lanes of one word at once.
    @inline(__always)
    private static func eightDigits(_ value: UInt64) -> UInt64 {
        // Two 32-bit lanes: the first four digits, then the last four.
        let halves = value / 10_000 | (value % 10_000) << 32
        // lane / 100 for a lane below 10 000: (lane * 10 486) >> 20.
        let hundreds = ((halves &* 10_486) >> 20) & 0x0000_007F_0000_007F
        // Four 16-bit lanes: each half's first pair, then its second.
        let pairs = hundreds | (halves &- hundreds &* 100) << 16
        // lane / 10 for a lane below 100: (lane * 103) >> 10.
        let tens = ((pairs &* 103) >> 10) & 0x000F_000F_000F_000F
        // Eight bytes: each pair's tens, then its ones.
        let digits = tens | (pairs &- tens &* 10) << 8
        return digits | 0x3030_3030_3030_3030
    }
}
