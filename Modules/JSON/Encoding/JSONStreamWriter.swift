import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state behind ``StreamingJSONEncoder``: one output buffer and a stack of open containers.
///
/// A container is open from its creation until a write happens at a shallower depth; each
/// write first closes the containers opened deeper than its own. A write to a container that
/// was already closed means the value encodes out of order: ``OutOfOrder`` is thrown and the
/// caller falls back to Foundation's encoder.
///
/// The writer is also the `Encoder` of the top-level value (nested composite values get a
/// ``JSONStreamEncoder``), so a flat body costs one object. The output is written into memory
/// from `malloc` that ``takeData()`` hands to `Data` without a copy. Call ``finish()`` when
/// done with the writer, whatever happened.
final class JSONStreamWriter: Encoder {
    struct OutOfOrder: Error {}

    enum Kind { case object, array }

    private struct Frame {
        var kind: Kind
        var id: Int
        var count: Int
    }

    /// The first open containers, kept inside the writer (no allocation).
    private typealias InlineFrames = InlineArray<8, Frame>
    /// Open containers up to this depth live inside the writer; deeper ones in ``deepFrames``.
    private static let inlineDepth = InlineFrames.count
    /// The first buffer's size: most request bodies fit, so they never grow.
    private static let initialCapacity = 512
    /// How many unused bytes the buffer handed to `Data` may keep before it is shrunk.
    private static let keptSlack = 4096

    // Everything below is accessed only by the one encoding call that owns this writer, never
    // concurrently.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>?
    @exclusivity(unchecked) private var capacity: Int
    /// The number of bytes written.
    @exclusivity(unchecked) private(set) var byteCount = 0

    @exclusivity(unchecked) private var frames: InlineFrames
    @exclusivity(unchecked) private var deepFrames: [Frame] = []
    /// The number of open containers.
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var nextID = 0
    /// Whether a value was written at the top level.
    @exclusivity(unchecked) private var wroteTopLevel = false
    /// Whether the top-level composite value began encoding (with the writer as its encoder).
    @exclusivity(unchecked) private var startedTopLevel = false
    /// The container the top-level value asked for, as ``JSONStreamEncoder`` keeps its own.
    @exclusivity(unchecked) private var topContainerID: Int?
    /// A nested encoder no one else holds any more, reused for the next composite value.
    @exclusivity(unchecked) private var spareEncoder: JSONStreamEncoder?

    let dateEncoding: StreamingJSONEncoder.DateEncoding

    init(dateEncoding: StreamingJSONEncoder.DateEncoding) {
        self.dateEncoding = dateEncoding
        frames = InlineFrames(repeating: Frame(kind: .object, id: 0, count: 0))
        capacity = Self.initialCapacity
        storage = malloc(Self.initialCapacity)?.assumingMemoryBound(to: UInt8.self)
        if storage == nil { capacity = 0 }
    }

    deinit {
        free(storage)
    }

    /// Breaks the reference cycle through the spare encoder; call once encoding is over.
    func finish() {
        spareEncoder = nil
    }

    /// The output, handed over without copying; the writer is empty afterwards.
    func takeData() -> Data {
        guard var storage, byteCount > 0 else { return Data() }
        let count = byteCount
        if capacity - count > Self.keptSlack, let shrunk = realloc(storage, count) {
            // A large body does not keep up to half its buffer unused while it is in flight.
            storage = shrunk.assumingMemoryBound(to: UInt8.self)
        }
        self.storage = nil
        capacity = 0
        byteCount = 0
        return Data(bytesNoCopy: storage, count: count, deallocator: .free)
    }

    // MARK: Bytes

    /// Counts `written` bytes stored where ``reserve(_:)`` pointed as written.
    @inline(__always)
    func advance(_ written: Int) {
        byteCount += written
    }

    /// Makes room for `extra` more bytes and returns where they go; ``advance(_:)`` then counts
    /// the bytes actually stored.
    @inline(__always)
    func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity - byteCount < extra { grow(byteCount + extra) }
        return storage.unsafelyUnwrapped + byteCount
    }

    private func grow(_ needed: Int) {
        var newCapacity = Swift.max(capacity * 2, Self.initialCapacity)
        while newCapacity < needed { newCapacity *= 2 }
        guard let grown = realloc(storage, newCapacity) else {
            fatalError("out of memory growing a JSON body to \(newCapacity) bytes")
        }
        storage = grown.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1).initialize(to: byte)
        byteCount += 1
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count).initialize(from: base, count: bytes.count)
        byteCount += bytes.count
    }

    /// Appends a string's UTF-8 bytes as they are.
    func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    // MARK: Containers

    @inline(__always)
    private func frame(at index: Int) -> Frame {
        index < Self.inlineDepth ? frames[index] : deepFrames[index - Self.inlineDepth]
    }

    /// Adds one element to the frame at `index` and returns how many it had before.
    @inline(__always)
    private func countElement(at index: Int) -> Int {
        if index < Self.inlineDepth {
            defer { frames[index].count += 1 }
            return frames[index].count
        }
        defer { deepFrames[index - Self.inlineDepth].count += 1 }
        return deepFrames[index - Self.inlineDepth].count
    }

    /// Opens a container at the current position and returns its id.
    func open(_ kind: Kind) -> Int {
        append(kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        nextID += 1
        let frame = Frame(kind: kind, id: nextID, count: 0)
        if depth < Self.inlineDepth { frames[depth] = frame } else { deepFrames.append(frame) }
        depth += 1
        return nextID
    }

    func openObject() -> Int { open(.object) }
    func openArray() -> Int { open(.array) }

    /// Whether the value used the encoder in a way this writer cannot stream; the output is
    /// then discarded.
    @exclusivity(unchecked) private(set) var isOutOfOrder = false

    /// Records an unsupported use (`superEncoder`) and returns an encoder whose output will be
    /// discarded.
    func unsupported() -> any Encoder {
        isOutOfOrder = true
        return JSONStreamEncoder(writer: self)
    }

    /// The stack index of the open container `id`, or `nil` when it was closed.
    @inline(__always)
    private func index(of id: Int) -> Int? {
        var index = depth - 1
        while index >= 0 {
            if frame(at: index).id == id { return index }
            index -= 1
        }
        return nil
    }

    /// Closes containers above `id` and prepares a new element in it (comma and key).
    func beginElement(in id: Int, key: String?) throws {
        guard let index = index(of: id) else {
            isOutOfOrder = true
            throw OutOfOrder()
        }
        while depth > index + 1 { closeTop() }
        let comma = countElement(at: index) > 0
        if let key {
            writeMemberPrefix(key, comma: comma)
        } else if comma {
            append(UInt8(ascii: ","))
        }
    }

    func count(of id: Int) -> Int {
        index(of: id).map { frame(at: $0).count } ?? 0
    }

    private func closeTop() {
        depth -= 1
        let kind = frame(at: depth).kind
        if depth >= Self.inlineDepth { deepFrames.removeLast() }
        append(kind == .object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    func closeAll() {
        while depth > 0 { closeTop() }
    }

    /// Marks the start of a single top-level or nested value.
    func beginTopLevelValue() throws {
        if depth == 0 {
            if wroteTopLevel {
                isOutOfOrder = true
                throw OutOfOrder()
            }
            wroteTopLevel = true
        }
    }

    // MARK: Composite values

    /// Encodes a value that is not one of the scalars the writer knows, with an encoder of its
    /// own: the writer itself for the top-level value, else a nested encoder (reused once no
    /// one holds it any more).
    func encodeComposite<T: Encodable>(_ value: T) throws {
        let before = byteCount
        if !startedTopLevel {
            startedTopLevel = true
            try value.encode(to: self)
        } else {
            var encoder = spareEncoder ?? JSONStreamEncoder(writer: self)
            spareEncoder = nil
            encoder.reset()
            try value.encode(to: encoder)
            if isKnownUniquelyReferenced(&encoder) { spareEncoder = encoder }
        }
        if byteCount == before {
            // A value that asked for no container is `{}`, as in Foundation's encoder.
            append(UInt8(ascii: "{"))
            append(UInt8(ascii: "}"))
        }
    }

    // MARK: Encoder, for the top-level value

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private func topContainer(_ open: () -> Int) -> Int {
        if let topContainerID { return topContainerID }
        let id = open()
        topContainerID = id
        return id
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(JSONStreamEncoder.KeyedContainer<Key>(writer: self, id: topContainer(openObject)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONStreamEncoder.UnkeyedContainer(writer: self, id: topContainer(openArray))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONStreamEncoder.SingleValueContainer(writer: self)
    }
}
