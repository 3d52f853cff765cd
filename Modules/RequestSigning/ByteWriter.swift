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
        (start + count).update(from: source, count: bytes.count)
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

    /// Appends a string's UTF-8 bytes.
    @inline(__always)
    mutating func append(string: String) {
        ByteText.withBytes(string) { append($0) }
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
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 0
        var probe = magnitude
        repeat {
            digits += 1
            probe /= 10
        } while probe > 0
        var position = count + digits - 1
        repeat {
            start[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            position -= 1
        } while magnitude > 0
        count += digits
    }
}
