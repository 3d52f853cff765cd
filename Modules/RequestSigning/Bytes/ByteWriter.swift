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
        reserve(20)
        if value < 0 {
            start[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        // Count the digits first, then write them backwards in place.
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20 && magnitude >= limit {
            digits += 1
            if digits < 20 { limit &*= 10 }
        }
        // Two digits per division: half the chain of dependent divisions.
        var position = count + digits
        while magnitude >= 100 {
            let quotient = magnitude / 100
            position -= 2
            writePair(UInt32(truncatingIfNeeded: magnitude &- quotient &* 100), at: position)
            magnitude = quotient
        }
        if magnitude >= 10 {
            writePair(UInt32(truncatingIfNeeded: magnitude), at: position - 2)
        } else {
            start[position - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        count += digits
    }

    /// Writes a number below 100 as two digits.
    @inline(__always)
    private func writePair(_ pair: UInt32, at position: Int) {
        // pair / 10 for pair < 100, without a division.
        let tens = (pair &* 103) >> 10
        start[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
        start[position + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair &- tens &* 10)
    }
}
