import Foundation

extension JSONTape {
    /// The document in canonical form: compact, the members of every object sorted by the
    /// UTF-8 bytes of their unescaped names (the order of Foundation's `.sortedKeys`), strings
    /// escaped as ``JSONStreamWriter`` escapes them, numbers as written.
    ///
    /// Two documents with the same members and values in any order and spacing give the same
    /// bytes.
    func canonicalDocument() -> Data {
        let writer = JSONStreamWriter(dateEncoding: .deferredToDate)
        defer { writer.finish() }
        writeCanonical(0, to: writer)
        return writer.takeData()
    }

    private func writeCanonical(_ index: Int, to writer: JSONStreamWriter) {
        let entry = self[index]
        switch entry.kind {
        case .array:
            writer.append(UInt8(ascii: "["))
            var element = index + 1
            while element < Int(entry.end) {
                if element > index + 1 { writer.append(UInt8(ascii: ",")) }
                writeCanonical(element, to: writer)
                element = next(after: element)
            }
            writer.append(UInt8(ascii: "]"))
        case .object:
            var members: [(name: String, key: Int)] = []
            members.reserveCapacity(Int(entry.count))
            var key = index + 1
            while key < Int(entry.end) {
                members.append((keyString(at: key), key))
                key = next(after: key + 1)
            }
            members.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            writer.append(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { writer.append(UInt8(ascii: ",")) }
                writeString(member.key, to: writer)
                writer.append(UInt8(ascii: ":"))
                writeCanonical(member.key + 1, to: writer)
            }
            writer.append(UInt8(ascii: "}"))
        case .string:
            writeString(index, to: writer)
        default:
            writer.append(UnsafeBufferPointer(start: bytes + Int(entry.start), count: Int(entry.end - entry.start)))
        }
    }

    /// A string: its bytes as they are when it has no escapes (the writer would write the same
    /// bytes: the document has no raw control characters), else unescaped and written again.
    private func writeString(_ index: Int, to writer: JSONStreamWriter) {
        let entry = self[index]
        guard entry.flags & Self.stringHasEscapes != 0 else {
            let start = Int(entry.start) - 1
            writer.append(UnsafeBufferPointer(start: bytes + start, count: Int(entry.end) + 1 - start))
            return
        }
        writer.writeString(keyString(at: index))
    }
}
