import Foundation

/// The state behind ``StreamingJSONEncoder``: one output buffer and a stack of open containers.
///
/// A container is open from its creation until a write happens at a shallower depth; each
/// write first closes the containers opened deeper than its own. A write to a container that
/// was already closed means the value encodes out of order: ``OutOfOrder`` is thrown and the
/// caller falls back to Foundation's encoder.
final class JSONStreamWriter {
    struct OutOfOrder: Error {}

    enum Kind { case object, array }

    private struct Frame {
        var kind: Kind
        var id: Int
        var count: Int
    }

    // Accessed only by the one encoding call that owns this writer, never concurrently.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    @exclusivity(unchecked) private var stack: [Frame] = []
    private var nextID = 0
    /// Whether a value was written at the top level.
    private var wroteTopLevel = false
    let dateEncoding: StreamingJSONEncoder.DateEncoding

    init(dateEncoding: StreamingJSONEncoder.DateEncoding) {
        self.dateEncoding = dateEncoding
        bytes.reserveCapacity(256)
        stack.reserveCapacity(8)
    }

    // MARK: Containers

    /// Opens a container at the current position and returns its id.
    func open(_ kind: Kind) -> Int {
        bytes.append(kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        nextID += 1
        stack.append(Frame(kind: kind, id: nextID, count: 0))
        return nextID
    }

    func openObject() -> Int { open(.object) }
    func openArray() -> Int { open(.array) }

    /// Whether the value used the encoder in a way this writer cannot stream; the output is
    /// then discarded.
    private(set) var isOutOfOrder = false

    /// Records an unsupported use (`superEncoder`) and returns an encoder whose output will be
    /// discarded.
    func unsupported() -> any Encoder {
        isOutOfOrder = true
        return JSONStreamEncoder(writer: self)
    }

    /// Closes containers above `id` and prepares a new element in it (comma and key).
    func beginElement(in id: Int, key: String?) throws {
        let index: Int
        if let last = stack.last, last.id == id {
            index = stack.count - 1
        } else if let found = stack.lastIndex(where: { $0.id == id }) {
            index = found
        } else {
            isOutOfOrder = true
            throw OutOfOrder()
        }
        while stack.count > index + 1 { closeTop() }
        if stack[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
        stack[index].count += 1
        if let key {
            writeString(key)
            bytes.append(UInt8(ascii: ":"))
        }
    }

    func count(of id: Int) -> Int {
        stack.last(where: { $0.id == id })?.count ?? 0
    }

    private func closeTop() {
        let frame = stack.removeLast()
        bytes.append(frame.kind == .object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    func closeAll() {
        while !stack.isEmpty { closeTop() }
    }

    /// Marks the start of a single top-level or nested value.
    func beginTopLevelValue() throws {
        if stack.isEmpty {
            if wroteTopLevel {
                isOutOfOrder = true
                throw OutOfOrder()
            }
            wroteTopLevel = true
        }
    }

    // MARK: Values

    func encodeValue<T: Encodable>(_ value: T) throws {
        // Metadata comparisons first: far cheaper than dynamic casts for the common types.
        if T.self == String.self {
            writeString(value as! String)
        } else if T.self == Int.self {
            writeInteger(value as! Int)
        } else if T.self == Int64.self {
            writeInteger(value as! Int64)
        } else if T.self == Bool.self {
            writeBool(value as! Bool)
        } else if T.self == Double.self {
            try writeDouble(value as! Double)
        } else if T.self == Date.self {
            try writeDate(value as! Date)
        } else if T.self == Data.self {
            writeString((value as! Data).base64EncodedString())
        } else if T.self == URL.self {
            writeString((value as! URL).absoluteString)
        } else if T.self == Decimal.self {
            bytes.append(contentsOf: (value as! Decimal).description.utf8)
        } else if T.self == Float.self {
            try writeFloat(value as! Float)
        } else {
            let before = bytes.count
            try value.encode(to: JSONStreamEncoder(writer: self))
            if bytes.count == before {
                // A value that asked for no container is `{}`, as in Foundation's encoder.
                bytes.append(contentsOf: "{}".utf8)
            }
        }
    }

    func writeNull() { bytes.append(contentsOf: "null".utf8) }

    func writeBool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    /// Writes an integer's decimal digits straight into the buffer, without making a `String`.
    func writeInteger<I: BinaryInteger>(_ value: I) {
        if let small = Int64(exactly: value) {
            writeInt64(small)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    private func writeInt64(_ value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // At most 20 digits; written backwards into a small tuple-free buffer, then copied once.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    func writeDouble(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "\(value) is not representable in JSON")
            )
        }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    func writeFloat(_ value: Float) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "\(value) is not representable in JSON")
            )
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    private func writeDate(_ date: Date) throws {
        switch dateEncoding {
        case .deferredToDate: try writeDouble(date.timeIntervalSinceReferenceDate)
        case .secondsSince1970: try writeDouble(date.timeIntervalSince1970)
        case .millisecondsSince1970: try writeDouble((date.timeIntervalSince1970 * 1000).rounded())
        case .iso8601: writeString(date.formatted(.iso8601))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { buffer in
            appendEscaped(buffer)
        }
        if done == nil {
            var copy = string
            copy.withUTF8 { appendEscaped($0) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        var start = 0
        var index = Self.firstEscape(in: buffer, from: 0)
        while index < buffer.count {
            let byte = buffer[index]
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<index]))
            start = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                bytes.append(contentsOf: "u00".utf8)
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0x0F)])
            }
            index = Self.firstEscape(in: buffer, from: start)
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<buffer.count]))
    }

    /// The index of the first byte at or after `start` that JSON requires escaped (a control
    /// character, `"` or `\\`), or `buffer.count`. Scans eight bytes at a time.
    private static func firstEscape(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        if let base = buffer.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= buffer.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let slash = word ^ (ones &* 0x5C)
                // A byte below 0x20, or equal to `"` or `\\`, sets its high bit in `found`.
                let below = (word &- ones &* 0x20) & ~word
                let isQuote = (quote &- ones) & ~quote
                let isSlash = (slash &- ones) & ~slash
                if (below | isQuote | isSlash) & highs != 0 { break }
                index += 8
            }
        }
        while index < buffer.count {
            let byte = buffer[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }
}
